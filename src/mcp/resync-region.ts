import { diffArrays } from "diff";
import type { RegionView } from "../ui/mcp/render.ts";
import type { Region } from "./edits.ts";

export interface LocatedRegion {
  view: RegionView;
  changedElsewhere: boolean;
}

/** Beyond this many differing lines the agent re-reads instead. */
const MAX_EDIT_LENGTH = 4000;
/** Changed lines next to the region a formatter may pull in and the region still count as located. */
const MAX_EXTRA_LINES = 10;

/** Joining gives the text back. */
function splitKeep(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
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

function lineIndex(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = Math.max(0, starts.length - 2);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

const blank = (line: string | undefined): boolean => (line ?? "").trim() === "";

/** [wFrom, wTo) in the text written, [bFrom, bTo) in the text now. */
interface Hunk {
  wFrom: number;
  wTo: number;
  bFrom: number;
  bTo: number;
}

/**
 * Find `region` of `before` (what was written) in `after` (what a callback left on disk).
 * Both texts are in agent space (LF). Offsets in unchanged lines map exactly; an offset in
 * a changed run of lines maps when the text between it and the run's edge survived.
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
  const anyChange = changes.some((c) => c.added || c.removed);
  const aStarts = lineStarts(a);
  const bStarts = lineStarts(b);
  const first = lineIndex(aStarts, region.start);
  if (region.end <= region.start) {
    const m = map[first] ?? -1;
    return { view: { kind: "unchanged", startLine: m + 1 }, changedElsewhere: anyChange };
  }
  const last = lineIndex(aStarts, region.end - 1);
  const untouched = map
    .slice(first, last + 1)
    .every((m, k) => m >= 0 && m === (map[first] ?? 0) + k);
  if (untouched) {
    return {
      view: { kind: "unchanged", startLine: (map[first] ?? 0) + 1 },
      changedElsewhere: anyChange,
    };
  }

  const hunkOf = (i: number): Hunk => {
    let lo = i;
    while (lo >= 0 && (map[lo] ?? 0) < 0) lo--;
    let hi = i;
    while (hi < a.length && (map[hi] ?? 0) < 0) hi++;
    return {
      wFrom: lo + 1,
      wTo: hi,
      bFrom: lo < 0 ? 0 : (map[lo] ?? 0) + 1,
      bTo: hi >= a.length ? b.length : (map[hi] ?? b.length),
    };
  };
  const hunks: Hunk[] = [];
  for (let i = first; i <= last; i++) {
    if ((map[i] ?? 0) >= 0) continue;
    const h = hunkOf(i);
    hunks.push(h);
    i = h.wTo;
  }
  for (const h of hunks) {
    const outside = Math.max(0, first - h.wFrom) + Math.max(0, h.wTo - 1 - last);
    if (outside > MAX_EXTRA_LINES || h.bTo - h.bFrom > 3 * (h.wTo - h.wFrom) + 20) {
      return {
        view: { kind: "unsure", startLine: h.bFrom + 1, endLine: Math.max(h.bFrom + 1, h.bTo) },
        changedElsewhere: true,
      };
    }
  }

  // The start: exact in an unchanged line; in a changed run, when the text before it survived.
  let fs: number | null = null;
  let startLine: number;
  if ((map[first] ?? -1) >= 0) {
    fs = (bStarts[map[first]!] ?? 0) + region.start - (aStarts[first] ?? 0);
    startLine = map[first]!;
  } else {
    const h = hunks[0]!;
    let from = h.bFrom;
    if (region.start === aStarts[h.wFrom] && !blank(a[h.wFrom])) {
      while (from < h.bTo && blank(b[from])) from++;
    }
    const prefix = before.slice(aStarts[h.wFrom] ?? 0, region.start);
    const now = after.slice(bStarts[from] ?? 0, bStarts[h.bTo] ?? after.length);
    if (now.startsWith(prefix)) fs = (bStarts[from] ?? 0) + prefix.length;
    startLine = from;
  }
  // The end, the same way from the other side.
  let fe: number | null = null;
  let endLine: number;
  if ((map[last] ?? -1) >= 0) {
    fe = (bStarts[map[last]!] ?? 0) + region.end - (aStarts[last] ?? 0);
    endLine = map[last]!;
  } else {
    const h = hunks[hunks.length - 1]!;
    let to = h.bTo;
    const suffix = before.slice(region.end, aStarts[h.wTo] ?? before.length);
    if (suffix.trim() === "" && !blank(a[h.wTo - 1])) {
      while (to > h.bFrom && blank(b[to - 1])) to--;
    }
    const now = after.slice(bStarts[h.bFrom] ?? 0, bStarts[to] ?? after.length);
    if (now.endsWith(suffix) && (bStarts[to] ?? 0) - suffix.length >= (fs ?? 0)) {
      fe = (bStarts[to] ?? 0) - suffix.length;
    }
    endLine = Math.max(h.bFrom, to - 1);
  }

  const coveredW = [
    Math.min(first, ...hunks.map((h) => h.wFrom)),
    Math.max(last, ...hunks.map((h) => h.wTo - 1)),
  ];
  const coveredB = [startLine, endLine];
  const mappedB = new Set(map.filter((m) => m >= 0));
  const changedElsewhere =
    map.some((m, i) => m < 0 && (i < coveredW[0]! || i > coveredW[1]!)) ||
    b.some((_, j) => !mappedB.has(j) && (j < coveredB[0]! || j > coveredB[1]!));

  if (fs !== null && fe !== null && fe > fs) {
    const text = after.slice(fs, fe);
    return {
      view: {
        kind: "exact",
        text,
        startLine: lineIndex(bStarts, fs) + 1,
        endLine: lineIndex(bStarts, fe - 1) + 1,
      },
      changedElsewhere,
    };
  }
  if (endLine < startLine) {
    return {
      view: { kind: "unsure", startLine: startLine + 1, endLine: startLine + 1 },
      changedElsewhere,
    };
  }
  return {
    view: {
      kind: "lines",
      text: b.slice(startLine, endLine + 1).join(""),
      startLine: startLine + 1,
      endLine: endLine + 1,
    },
    changedElsewhere,
  };
}
