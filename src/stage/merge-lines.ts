import { diffArrays } from "diff";

interface Hunk {
  readonly start: number;
  readonly end: number;
  readonly lines: readonly string[];
}

/** With their terminators, so CRLF and a missing final newline survive. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function hunksOf(base: readonly string[], other: readonly string[]): Hunk[] {
  const out: Hunk[] = [];
  let at = 0;
  let current: { start: number; end: number; lines: string[] } | null = null;
  for (const part of diffArrays(base as string[], other as string[])) {
    if (part.added) {
      current ??= { start: at, end: at, lines: [] };
      current.lines.push(...part.value);
    } else if (part.removed) {
      current ??= { start: at, end: at, lines: [] };
      at += part.value.length;
      current.end = at;
    } else {
      if (current) out.push(current);
      current = null;
      at += part.value.length;
    }
  }
  if (current) out.push(current);
  return out;
}

const same = (a: Hunk, b: Hunk): boolean =>
  a.start === b.start &&
  a.end === b.end &&
  a.lines.length === b.lines.length &&
  a.lines.every((l, i) => l === b.lines[i]);

function clash(a: Hunk, b: Hunk): boolean {
  if (same(a, b)) return false;
  const aInsert = a.start === a.end;
  const bInsert = b.start === b.end;
  if (aInsert && bInsert) return a.start === b.start;
  if (aInsert) return b.start < a.start && a.start < b.end;
  if (bInsert) return a.start < b.start && b.start < a.end;
  return a.start < b.end && b.start < a.end;
}

/**
 * Three-way merge by lines where changes that only sit next to each other do not clash (git
 * merge-file does: a fix on line 3 beside an unstaged edit on line 4). Every change is placed
 * by the base's line numbers, never guessed; null when changes overlap. Works on latin1.
 */
export function mergeAdjacent(base: string, ours: string, theirs: string): string | null {
  const b = splitLines(base);
  const mine = hunksOf(b, splitLines(ours));
  const fix = hunksOf(b, splitLines(theirs));
  for (const x of mine) for (const y of fix) if (clash(x, y)) return null;
  const all = [...mine, ...fix.filter((y) => !mine.some((x) => same(x, y)))].sort(
    (x, y) => x.start - y.start || x.end - x.start - (y.end - y.start),
  );
  const out: string[] = [];
  let at = 0;
  for (const h of all) {
    out.push(...b.slice(at, h.start), ...h.lines);
    at = Math.max(at, h.end);
  }
  out.push(...b.slice(at));
  return out.join("");
}
