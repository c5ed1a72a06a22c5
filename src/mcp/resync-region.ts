import { diffArrays } from "diff";
import type { Region } from "./edits.ts";

/**
 * Where an agent's new_string stands after a callback (a formatter) rewrote the file:
 * - exact: the formatted new_string itself (the lines around it were left alone)
 * - lines: whole lines that now hold it (the formatter also touched its neighbours)
 * - unchanged: the formatter left this region alone
 * - unsure: it cannot be located with confidence; the agent must re-read
 */
export type RegionView =
  | { kind: "exact" | "lines"; text: string; startLine: number; endLine: number }
  | { kind: "unchanged"; startLine: number }
  | { kind: "unsure"; startLine: number | null; endLine: number | null };

export interface LocatedRegion {
  view: RegionView;
  /** The callback also changed lines away from this region. */
  changedElsewhere: boolean;
}

/** Beyond this many differing lines the diff is not computed: the agent re-reads instead. */
const MAX_EDIT_LENGTH = 4000;
/** Extra lines (before the region and after it) a formatter may pull in and still be "located". */
const MAX_EXTRA_LINES = 10;

/** Lines with their terminators, so joining gives the text back. */
function splitKeep(text: string): string[] {
  const lines = text.match(/[^\n]*\n|[^\n]+$/g);
  return lines ?? [];
}

function lineStarts(lines: readonly string[]): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length;
  }
  starts.push(at);
  return starts;
}

/** Index of the line holding `offset` (an offset at the very end belongs to the last line). */
function lineIndex(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}

/**
 * Find `region` of `before` (what was written) in `after` (what a callback left on disk).
 * Both texts are in agent space (LF).
 *
 * @example
 * locateRegion("a\nx=1\nb\n", "a\nx = 1\nb\n", { start: 2, end: 5 });
 * // { view: { kind: "exact", text: "x = 1", startLine: 2, endLine: 2 }, changedElsewhere: false }
 */
export function locateRegion(before: string, after: string, region: Region): LocatedRegion {
  const a = splitKeep(before);
  const b = splitKeep(after);
  const changes = diffArrays(a, b, { maxEditLength: MAX_EDIT_LENGTH });
  if (changes === undefined) {
    return { view: { kind: "unsure", startLine: null, endLine: null }, changedElsewhere: true };
  }
  const map: number[] = new Array(a.length).fill(-1);
  let ai = 0;
  let bi = 0;
  for (const change of changes) {
    const count = change.count ?? change.value.length;
    if (change.added) bi += count;
    else if (change.removed) ai += count;
    else {
      for (let k = 0; k < count; k++) map[ai + k] = bi + k;
      ai += count;
      bi += count;
    }
  }
  const starts = lineStarts(a);
  const first = lineIndex(starts, region.start);
  const last = region.end > region.start ? lineIndex(starts, region.end - 1) : first;
  let below = first - 1;
  while (below >= 0 && map[below]! < 0) below--;
  let above = last + 1;
  while (above < a.length && map[above]! < 0) above++;
  const fromB = below < 0 ? 0 : map[below]! + 1;
  const toB = above >= a.length ? b.length : map[above]!;

  const regionUntouched =
    region.end > region.start &&
    map.slice(first, last + 1).every((m, k) => m >= 0 && m === map[first]! + k);
  const anyChange = changes.some((c) => c.added || c.removed);
  const mappedB = new Set(map.filter((m) => m >= 0));
  const changedElsewhere = regionUntouched
    ? anyChange
    : map.some((m, i) => m < 0 && (i <= below || i >= above)) ||
      b.some((_, j) => !mappedB.has(j) && (j < fromB || j >= toB));
  if (region.end === region.start || regionUntouched) {
    const startLine = region.end > region.start ? map[first]! + 1 : fromB + 1;
    return { view: { kind: "unchanged", startLine }, changedElsewhere };
  }

  const extra = first - below - 1 + (above - last - 1);
  const regionLines = last - first + 1;
  const newLines = toB - fromB;
  if (extra > MAX_EXTRA_LINES || newLines === 0 || newLines > 3 * regionLines + 20) {
    return {
      view: { kind: "unsure", startLine: fromB + 1, endLine: Math.max(fromB + 1, toB) },
      changedElsewhere,
    };
  }
  const now = b.slice(fromB, toB).join("");
  const prefix = before.slice(starts[below + 1] ?? 0, region.start);
  const suffix = before.slice(region.end, starts[above] ?? before.length);
  if (
    now.startsWith(prefix) &&
    now.endsWith(suffix) &&
    prefix.length + suffix.length <= now.length
  ) {
    const text = now.slice(prefix.length, now.length - suffix.length);
    const startLine = fromB + 1 + (prefix.split("\n").length - 1);
    const endLine = startLine + (text.replace(/\n$/, "").split("\n").length - 1);
    return { view: { kind: "exact", text, startLine, endLine }, changedElsewhere };
  }
  return {
    view: { kind: "lines", text: now, startLine: fromB + 1, endLine: toB },
    changedElsewhere,
  };
}
