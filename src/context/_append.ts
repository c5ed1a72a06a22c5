import { isListLine } from "./_edit.ts";
import { blocksIn, parseItem, trimBlankEnd } from "./blocks.ts";
import { isBlank, type MdLine } from "./markdown.ts";

export type Insertion = { at: number; insert: string[] } | { error: string };

function endsInFence(lines: readonly MdLine[], at: number): boolean {
  const previous = lines[at - 1];
  return previous?.fence === "open" || previous?.fence === "body";
}

/** After the region's last non-blank line (the whole file when `heading` is null); a blank line before it, except between list items. */
export function appendInto(
  lines: readonly MdLine[],
  heading: number | null,
  to: number,
  content: readonly string[],
): Insertion {
  const from = heading === null ? 0 : heading + 1;
  const at = trimBlankEnd(lines, from, to);
  if (endsInFence(lines, at)) return { error: "it ends inside a code fence that never closes" };
  const followsItem = blocksIn(lines, lastTopBlock(lines, from, at), at).some(
    (b) => b.kind === "item" && b.end === at,
  );
  const separator = at > 0 && !(followsItem && isListLine(content[0] ?? ""));
  const insert = [...(separator ? [""] : []), ...content];
  const emptyBeforeHeading =
    heading !== null && at === heading + 1 && at === to && to < lines.length;
  if (emptyBeforeHeading) insert.push("");
  return { at, insert };
}

/**
 * No block that starts before a heading, an unindented list item, or an unindented line
 * after a blank line runs past it, so the blocks ending at `at` are found from there
 * without reading the whole region.
 */
function lastTopBlock(lines: readonly MdLine[], from: number, at: number): number {
  for (let i = at - 1; i > from; i--) {
    const line = lines[i] as MdLine;
    if (line.fence !== null || isBlank(line) || /^[ \t]/.test(line.text)) continue;
    if (line.heading || parseItem(line) || isBlank(lines[i - 1] as MdLine)) return i;
  }
  return from;
}

/** The usual level of the file's sections, else 2. */
export function newSectionLevel(lines: readonly MdLine[], headings?: readonly number[]): number {
  const levels =
    headings === undefined
      ? lines.flatMap((line) => (line.heading ? [line.heading.level] : []))
      : headings.map((i) => lines[i]?.heading?.level ?? 2);
  const body = levels[0] === 1 && !levels.slice(1).includes(1) ? levels.slice(1) : levels;
  const counts = new Map<number, number>();
  for (const level of body) counts.set(level, (counts.get(level) ?? 0) + 1);
  let best = 2;
  let bestCount = 0;
  for (const [level, count] of counts) {
    if (count > bestCount || (count === bestCount && level < best)) {
      best = level;
      bestCount = count;
    }
  }
  return best;
}

export function createSection(
  lines: readonly MdLine[],
  name: string,
  level: number,
  content: readonly string[],
): Insertion {
  const at = trimBlankEnd(lines, 0, lines.length);
  if (endsInFence(lines, at)) return { error: "it ends inside a code fence that never closes" };
  const heading = `${"#".repeat(level)} ${name.trim()}`;
  return { at, insert: [...(at > 0 ? [""] : []), heading, "", ...content] };
}
