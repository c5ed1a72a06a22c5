import { isBlank, type MdLine } from "./markdown.ts";

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
 * So that removing block `[start, end)` leaves no doubled blank lines: the blanks after it
 * go when blanks (or the file start) precede it, those before it when it ran to the end.
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

/** For "no blank line between list items". */
export function isListLine(text: string): boolean {
  return /^\s*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/.test(text);
}
