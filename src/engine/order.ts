import type { PlannedRun } from "./plan.ts";

/**
 * Which runs of a batch each run waits for, by index into `planned`: every run of an `after`
 * callback; a fixer before any other run sharing a file with it (readers see fixed text);
 * two fixers on a file in config order. An implied edge that would close a circle with an
 * explicit `after` is left out.
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
      const before = !run.callback.fixes || j < i;
      if (before && shares(i, j) && !reaches(waits, j, i)) waits[i]!.push(j);
    }
  });
  return waits;
}

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
