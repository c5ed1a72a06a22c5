import type { Overlap, Per } from "../../config/types.ts";
import type { Span } from "./_spans.ts";

/** How to run, read from the request's words; undefined where it says nothing. */
export interface Options {
  blocking?: boolean;
  per?: Per;
  overlap?: Overlap;
  /** Seconds. */
  timeout?: number;
  successMessage?: string;
}

const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  ten: 10,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  "half a": 0.5,
  "half an": 0.5,
};

const UNIT = "(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)";
const AMOUNT = String.raw`(\d+(?:\.\d+)?|half an?|an?|one|two|three|four|five|ten|fifteen|twenty|thirty)`;
const TIMEOUTS = [
  new RegExp(
    String.raw`\b(?:up\s+to|at\s+most|within|max(?:imum)?(?:\s+of)?|no\s+(?:more|longer)\s+than|time\s*out(?:\s+of|\s+after|:)?|limit(?:ed)?\s+to|kill\s+it\s+after|give\s+it|stop\s+(?:it\s+)?after)\s+${AMOUNT}\s*${UNIT}\b`,
  ),
  new RegExp(String.raw`\b${AMOUNT}[\s-]*${UNIT}\s+(?:timeout|time\s*limit|limit|max(?:imum)?)\b`),
];

function seconds(amount: string, unit: string): number {
  const n = NUMBER_WORDS[amount.replace(/\s+/g, " ")] ?? Number(amount);
  if (unit.startsWith("h")) return n * 3600;
  if (unit.startsWith("m")) return n * 60;
  return n;
}

/** Seconds. */
export function readTimeout(lower: string): number | undefined {
  for (const re of TIMEOUTS) {
    const m = re.exec(lower);
    if (m) return Math.max(1, Math.round(seconds(m[1]!, m[2]!)));
  }
  return undefined;
}

const QUOTE = String.raw`(?:"([^"]+)"|“([^”]+)”|\`([^\`]+)\`|(?<=^|\s)'([^']+)'(?=$|[\s,.;:!?)]))`;
const PASSES = String.raw`(?:when|if|on|once|after)?\s*(?:it|they|that|everything|all)?\s*(?:pass(?:es|ed)?|succeeds?|succeeded|success|works|is\s+(?:fine|ok|clean)|ok|clean)\b`;
const SUCCESS = [
  new RegExp(
    String.raw`\b(?:say|print|show|display|report|tell\s+me|message)\s+${QUOTE}\s*${PASSES}`,
  ),
  new RegExp(
    String.raw`\b(?:on\s+success|(?:when|if|once)\s+it\s+(?:passes|succeeds))[,:]?\s*(?:say|print|show|display)\s+${QUOTE}`,
  ),
];
const SILENT = /\b(?:silent(?:ly)?|quiet(?:ly)?|say\s+nothing|no\s+message)\b/;
const PASS_WORD = /\b(?:pass(?:es|ed)?|succeeds?|success|ok)\b/;

/** A success message in quotes ("say "types OK" when it passes"), with the words it used. */
export function readSuccess(text: string): { message: string; span: Span } | undefined {
  for (const re of SUCCESS) {
    const m = re.exec(text);
    if (m) {
      const message = (m[1] ?? m[2] ?? m[3] ?? m[4])!;
      return { message, span: { start: m.index, end: m.index + m[0].length } };
    }
  }
  return undefined;
}

/** From the lowercased request. */
export function readOptions(lower: string): Options {
  const options: Options = {};
  if (
    /\b(?:in\s+the\s+background|background|don'?t\s+wait|do\s+not\s+wait|without\s+waiting|non-?blocking|asynchronously|async)\b/.test(
      lower,
    )
  ) {
    options.blocking = false;
  }
  if (
    /\b(?:(?:each|every|per)\s+(?:changed\s+|edited\s+|saved\s+)?file|one\s+file\s+at\s+a\s+time|file\s+by\s+file|separately\s+for\s+each)\b/.test(
      lower,
    )
  ) {
    options.per = "file";
  } else if (/\b(?:all\s+at\s+once|in\s+one\s+go|once\s+per\s+batch|batch(?:ed)?)\b/.test(lower)) {
    options.per = "batch";
  }
  if (
    /\b(?:cancel|kill|restart|replace|stop)\b.*\b(?:previous|old|running|earlier|last|stale)\b/.test(
      lower,
    )
  ) {
    options.overlap = "replace";
  } else if (/\b(?:in\s+parallel|alongside|at\s+the\s+same\s+time)\b/.test(lower)) {
    options.overlap = "parallel";
  } else if (/\b(?:queue|one\s+at\s+a\s+time|wait\s+for\s+the\s+previous)\b/.test(lower)) {
    options.overlap = "queue";
  }
  const timeout = readTimeout(lower);
  if (timeout !== undefined) options.timeout = timeout;
  if (SILENT.test(lower) && PASS_WORD.test(lower)) options.successMessage = "silent";
  return options;
}

/** Outside any success message. */
export function readQuoted(text: string): { text: string; span: Span }[] {
  const out: { text: string; span: Span }[] = [];
  for (const m of text.matchAll(new RegExp(QUOTE, "g"))) {
    const inner = (m[1] ?? m[2] ?? m[3] ?? m[4])!.trim();
    const start = m.index ?? 0;
    if (inner !== "") out.push({ text: inner, span: { start, end: start + m[0].length } });
  }
  return out;
}
