import type { HookAnswer } from "../../model/hook.ts";

/**
 * Claude Code puts a hook's output past 10,000 characters in a file and gives the model a
 * 2,000-character preview: the failures past it would never be read. Every reply stays
 * under this, the agent's own wording included.
 */
export const REPLY_BUDGET = 9_000;

/** A failure is never cut below its first line and its log pointer, about this long. */
const LEAST_SHARE = 240;

/** Failures first, each cut to a fair share with its log pointer kept; notes with what room is left. */
export function fitAnswer(answer: HookAnswer, budget = REPLY_BUDGET): HookAnswer {
  if (size([...answer.failures, ...answer.info]) <= budget) return answer;
  const failures = fitFailures(answer.failures, budget);
  const info: string[] = [];
  let room = budget - size(failures);
  for (const [i, note] of answer.info.entries()) {
    if (note.length + 2 > room - 80) {
      info.push(`cpilot: ${answer.info.length - i} more notes left out to keep this short.`);
      break;
    }
    info.push(note);
    room -= note.length + 2;
  }
  return { failures, info };
}

/** The same, for a reply that is one text (a held stop, a batch's end). */
export function fitText(text: string, budget = REPLY_BUDGET): string {
  if (text.length <= budget) return text;
  return fitFailures(text.split("\n\n"), budget).join("\n\n");
}

function fitFailures(failures: readonly string[], budget: number): string[] {
  if (size(failures) <= budget) return [...failures];
  const share = Math.floor(budget / failures.length) - 2;
  if (share >= LEAST_SHARE) return failures.map((f) => cut(f, share));
  const fits = Math.max(1, Math.floor(budget / LEAST_SHARE) - 1);
  const shown = failures.slice(0, fits).map((f) => cut(f, LEAST_SHARE));
  const rest = failures.length - shown.length;
  return [
    ...shown,
    `cpilot: ${rest} more failure${rest === 1 ? "" : "s"} not shown here, to keep this short: fix these first, or run \`cpilot check\` to see them all.`,
  ];
}

/** The first line, then as many as fit, then the last line when it points at the full log. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const lines = text.split("\n");
  const last =
    lines.length > 1 && /cpilot logs /.test(lines.at(-1) ?? "") ? lines.pop() : undefined;
  const kept = [(lines.shift() ?? "").slice(0, max)];
  let used = kept[0]?.length ?? 0;
  const tail = last === undefined ? 0 : last.length + 1;
  for (const line of lines) {
    if (used + line.length + 1 + tail + 40 > max) break;
    kept.push(line);
    used += line.length + 1;
  }
  const dropped = lines.length - (kept.length - 1);
  if (dropped > 0) kept.push(`  … ${dropped} more line${dropped === 1 ? "" : "s"} in the full log`);
  if (last !== undefined) kept.push(last);
  return kept.join("\n");
}

function size(parts: readonly string[]): number {
  return parts.reduce((n, p) => n + p.length + 2, 0);
}
