import type { PlannedRun } from "./plan.ts";

/**
 * Which runs of a batch each run waits for, by index into `planned`:
 * - `after: ["format"]`: every run of "format" in the batch, whatever its files;
 * - a fixer (`fixes: true`) goes before every other callback's run that shares a file with
 *   it, so readers see the fixed text and report its line numbers;
 * - two fixers sharing a file run one after the other, in config order.
 * Explicit `after` entries come first and win: an implied edge that would close a circle
 * with them is left out (config validation already refuses circles of `after` alone).
 */
export function runOrder(planned: readonly PlannedRun[]): number[][] {
  const waits: number[][] = planned.map(() => []);
  const ordered = planned.some((p) => p.callback.fixes || p.callback.after.length > 0);
  if (!ordered) return waits;
  planned.forEach((run, i) => {
    for (const [j, other] of planned.entries()) {
      if (j !== i && run.callback.after.includes(other.callback.name)) waits[i]!.push(j);
    }
  });
  const sets = planned.map((p) => new Set(p.files));
  const shares = (a: number, b: number): boolean => planned[b]!.files.some((f) => sets[a]!.has(f));
  planned.forEach((run, i) => {
    for (let j = 0; j < planned.length; j++) {
      const other = planned[j]!;
      if (j === i || other.callback === run.callback || !other.callback.fixes) continue;
      // readers wait for fixers; between two fixers the one listed first goes first
      const before = !run.callback.fixes || j < i;
      if (before && shares(i, j) && !reaches(waits, j, i)) waits[i]!.push(j);
    }
  });
  return waits;
}

/** True when run `from` already waits, directly or not, for run `to`. */
function reaches(waits: readonly number[][], from: number, to: number): boolean {
  const seen = new Set<number>();
  const stack = [from];
  while (stack.length > 0) {
    const at = stack.pop()!;
    if (at === to) return true;
    if (seen.has(at)) continue;
    seen.add(at);
    stack.push(...waits[at]!);
  }
  return false;
}
