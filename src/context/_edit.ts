/** Where a removal ends so that it leaves no doubled blank lines; what a list line is. */
import { isBlank, type MdLine } from "./markdown.ts";

/** Count blank lines going back from `index` (exclusive) and forward from `index` (inclusive). */
function blanksBefore(lines: readonly MdLine[], index: number): number {
  let i = index;
  while (i > 0 && isBlank(lines[i - 1] as MdLine)) i--;
  return index - i;
}

function blanksAfter(lines: readonly MdLine[], index: number): number {
  let i = index;
  while (i < lines.length && isBlank(lines[i] as MdLine)) i++;
  return i - index;
}

/**
 * The range to delete so that removing block `[start, end)` leaves no doubled blank lines:
 * the blank lines after it go too when blank lines (or the file start) precede it, and the
 * blank lines before it go too when it ran to the end of the file.
 */
export function removalRange(
  lines: readonly MdLine[],
  start: number,
  end: number,
): { start: number; end: number } {
  const before = blanksBefore(lines, start);
  const after = blanksAfter(lines, end);
  if (end + after >= lines.length) return { start: start - before, end: lines.length };
  if (start === 0 || before > 0) return { start, end: end + after };
  return { start, end };
}

/** True when the line (or its list item) is a list entry, for "no blank line between items". */
export function isListLine(text: string): boolean {
  return /^\s*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/.test(text);
}
