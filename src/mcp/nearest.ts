import type { Edit, EditFailure } from "./edits.ts";
import { lineAt } from "./text-file.ts";

/** Candidates shown when old_string is not found. */
const MAX_CANDIDATES = 3;
/** Lines shown per candidate. */
const MAX_SHOWN_LINES = 12;
const MAX_SHOWN_CHARS = 200;
/** Below this similarity a region is not worth showing. */
const MIN_SCORE = 0.4;
/** Above this many line comparisons, windows are only tried around the best anchor lines. */
const FULL_SCAN_LIMIT = 300_000;
const ANCHORS = 50;

type Grams = Set<string>;

function grams(line: string): Grams {
  const s = line.replace(/\s+/g, " ").trim();
  const set: Grams = new Set();
  if (s.length === 1) set.add(s);
  for (let i = 0; i + 1 < s.length; i++) set.add(s.slice(i, i + 2));
  return set;
}

function overlap(a: Grams, b: Grams): number {
  let n = 0;
  const [small, big] = a.size <= b.size ? [a, b] : [b, a];
  for (const g of small) if (big.has(g)) n++;
  return n;
}

/** 0..1; `partial`: `a` may be a piece of `b` (a snippet's first or last line). */
function lineScore(a: string, b: string, ga: Grams, gb: Grams, partial: boolean): number {
  if (a === b) return 1;
  if (a.trim() === b.trim()) return 0.97;
  if (ga.size === 0 || gb.size === 0) return ga.size === gb.size ? 1 : 0;
  const common = overlap(ga, gb);
  const dice = (2 * common) / (ga.size + gb.size);
  return partial ? Math.max(dice, (0.9 * common) / ga.size) : dice;
}

interface Candidate {
  start: number;
  score: number;
}

/** Best first. */
export function nearestRegions(text: string, snippet: string, max = MAX_CANDIDATES): Candidate[] {
  const fileLines = text.split("\n");
  const want = snippet.replace(/\n$/, "").split("\n");
  const n = want.length;
  if (fileLines.length === 0 || n === 0) return [];
  const wantGrams = want.map(grams);
  const fileGrams: (Grams | undefined)[] = [];
  const fg = (i: number): Grams => {
    let g = fileGrams[i];
    if (g === undefined) {
      g = grams(fileLines[i] ?? "");
      fileGrams[i] = g;
    }
    return g;
  };
  const score = (start: number): number => {
    let total = 0;
    let count = 0;
    for (let k = 0; k < n; k++) {
      const i = start + k;
      if (i < 0 || i >= fileLines.length) continue;
      const partial = k === 0 || k === n - 1;
      total += lineScore(want[k]!, fileLines[i]!, wantGrams[k]!, fg(i), partial);
      count++;
    }
    return count === 0 ? 0 : total / n;
  };
  const lastStart = Math.max(0, fileLines.length - n);
  let starts: number[];
  if ((lastStart + 1) * n <= FULL_SCAN_LIMIT) {
    starts = Array.from({ length: lastStart + 1 }, (_, i) => i);
  } else {
    const anchor = want.reduce((best, line, k) => (line.length > want[best]!.length ? k : best), 0);
    const ranked = fileLines
      .map((line, i) => ({ i, s: lineScore(want[anchor]!, line, wantGrams[anchor]!, fg(i), true) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, ANCHORS);
    starts = [...new Set(ranked.map((r) => Math.min(lastStart, Math.max(0, r.i - anchor))))];
  }
  const scored = starts
    .map((start) => ({ start, score: score(start) }))
    .filter((c) => c.score >= MIN_SCORE)
    .sort((a, b) => b.score - a.score || a.start - b.start);
  const chosen: Candidate[] = [];
  for (const c of scored) {
    if (chosen.some((o) => Math.abs(o.start - c.start) < n)) continue;
    chosen.push(c);
    if (chosen.length >= max) break;
  }
  return chosen;
}

/** `    12\t<line>`, as read_file shows them. */
export function numberedLines(lines: readonly string[], firstLine: number): string[] {
  return lines.map((line, i) => {
    const shown = line.length > MAX_SHOWN_CHARS ? `${line.slice(0, MAX_SHOWN_CHARS)}…` : line;
    return `${String(firstLine + i).padStart(6)}\t${shown}`;
  });
}

function showCandidates(text: string, snippet: string): string[] {
  const fileLines = text.split("\n");
  const n = snippet.replace(/\n$/, "").split("\n").length;
  const out: string[] = [];
  for (const c of nearestRegions(text, snippet)) {
    const end = Math.min(fileLines.length, c.start + n);
    out.push(`lines ${c.start + 1}-${end} (${Math.round(c.score * 100)}% similar):`);
    const shown = fileLines.slice(c.start, Math.min(end, c.start + MAX_SHOWN_LINES));
    out.push(...numberedLines(shown, c.start + 1));
    if (end - c.start > MAX_SHOWN_LINES)
      out.push(`  … ${end - c.start - MAX_SHOWN_LINES} more lines`);
  }
  return out;
}

function hints(text: string, snippet: string): string[] {
  const out: string[] = [];
  const lines = snippet.split("\n").filter((l) => l.trim() !== "");
  if (lines.length > 0 && lines.every((l) => /^\s*\d+(\t|→)/.test(l))) {
    out.push("hint: old_string starts its lines with line numbers from read_file; leave them out");
  }
  const squash = (s: string): string => s.replace(/\s+/g, "");
  if (out.length === 0 && squash(snippet) !== "" && squash(text).includes(squash(snippet))) {
    out.push(
      "hint: the file has this text with different whitespace (indentation, tabs or line breaks); copy old_string exactly from the lines below",
    );
  }
  return out;
}

/** The nearest text (line-numbered) when old_string is missing, every match when it is not unique. */
export function describeEditFailure(
  failure: EditFailure,
  path: string,
  edits: readonly Edit[],
): string {
  const which = edits.length > 1 ? `edit ${failure.index + 1} of ${edits.length}: ` : "";
  const none = edits.length > 1 ? "; no edit was applied" : "";
  const head = `Cannot edit ${JSON.stringify(path)}: ${which}`;
  switch (failure.kind) {
    case "empty-old":
      return `${head}old_string is empty${none}\nhint: include a line next to where the text goes in old_string; write_file creates or replaces a whole file`;
    case "no-change":
      return `${head}old_string and new_string are the same${none}\nhint: nothing to do; check that new_string has your change`;
    case "not-unique": {
      const lines = failure.offsets.map((o) => lineAt(failure.text, o));
      const shown = lines.slice(0, 20).join(", ") + (lines.length > 20 ? ", …" : "");
      return `${head}old_string matches ${failure.offsets.length} places (lines ${shown})${none}\nhint: add surrounding lines to old_string so it matches one place, or set replace_all: true to replace every one`;
    }
    case "not-found": {
      const oldString = edits[failure.index]?.oldString ?? "";
      const lines = [`${head}old_string was not found${none}`];
      if (edits.length > 1 && failure.index > 0) {
        lines.push(
          "(edits apply in order: this one was matched against the text after the ones before it)",
        );
      }
      lines.push(...hints(failure.text, oldString));
      const candidates = showCandidates(failure.text, oldString);
      if (candidates.length > 0) lines.push("nearest text in the file:", ...candidates);
      else lines.push("nothing in the file is close to it; read_file shows the current text");
      return lines.join("\n");
    }
  }
}
