import { isBlank, type MdLine } from "./markdown.ts";

/** Lines `start` to `end` (exclusive). */
export interface Block {
  kind: "heading" | "item" | "paragraph";
  start: number;
  /** Trailing blank lines are not part of the block. */
  end: number;
  /** Heading text, item text, or first line. */
  label: string;
  checked?: boolean;
}

const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])(?:[ \t]+|$)(?:\[([ xX])\](?:[ \t]+|$))?(.*)$/;

/** A tab counts as 4. */
function indent(text: string): number {
  let width = 0;
  for (const c of text) {
    if (c === " ") width++;
    else if (c === "\t") width += 4 - (width % 4);
    else break;
  }
  return width;
}

export function parseItem(
  line: MdLine,
): { indent: number; checked: boolean | undefined; text: string } | undefined {
  if (line.fence !== null || line.heading) return undefined;
  const match = ITEM.exec(line.text);
  if (!match) return undefined;
  const box = match[3];
  const checked = box === undefined ? undefined : box !== " ";
  return { indent: indent(match[1] ?? ""), checked, text: (match[4] ?? "").trim() };
}

export function trimBlankEnd(lines: readonly MdLine[], start: number, end: number): number {
  let e = end;
  while (e > start && isBlank(lines[e - 1] as MdLine)) e--;
  return e;
}

/** `headings`, the heading lines' indexes in order, spares a walk over every line. */
export function sectionEnd(
  lines: readonly MdLine[],
  index: number,
  headings?: readonly number[],
): number {
  const level = lines[index]?.heading?.level ?? 0;
  if (headings !== undefined) {
    let lo = 0;
    let hi = headings.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((headings[mid] as number) <= index) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < headings.length; k++) {
      const at = headings[k] as number;
      if ((lines[at]?.heading?.level ?? 0) <= level) return at;
    }
    return lines.length;
  }
  for (let i = index + 1; i < lines.length; i++) {
    const heading = lines[i]?.heading;
    if (heading && heading.level <= level) return i;
  }
  return lines.length;
}

function skipFence(lines: readonly MdLine[], index: number): number {
  let i = index + 1;
  while (i < lines.length && lines[i]?.fence === "body") i++;
  return i < lines.length && lines[i]?.fence === "close" ? i + 1 : i;
}

function itemEnd(lines: readonly MdLine[], index: number, limit: number, own: number): number {
  let i = index + 1;
  while (i < limit) {
    const line = lines[i] as MdLine;
    if (isBlank(line)) {
      let next = i;
      while (next < limit && isBlank(lines[next] as MdLine)) next++;
      const after = lines[next];
      if (next >= limit || !after || after.heading || indent(after.text) <= own) break;
      i = next;
      continue;
    }
    if (line.heading) break;
    if (line.fence === "open") {
      if (indent(line.text) <= own) break;
      i = skipFence(lines, i);
      continue;
    }
    if (indent(line.text) > own) i++;
    else if (parseItem(line)) break;
    else i++; // a lazy continuation line
  }
  return trimBlankEnd(lines, index, i);
}

function paragraphEnd(lines: readonly MdLine[], index: number, limit: number): number {
  let i = index + 1;
  while (i < limit) {
    const line = lines[i] as MdLine;
    if (isBlank(line) || line.heading || line.fence === "open" || parseItem(line)) break;
    i++;
  }
  return i;
}

/** A heading, a list item or a paragraph's first line; undefined for any other line. */
export function blockAt(
  lines: readonly MdLine[],
  i: number,
  from = 0,
  to = lines.length,
): Block | undefined {
  const line = lines[i] as MdLine;
  if (line.fence !== null || isBlank(line)) return undefined;
  if (line.heading) {
    const end = trimBlankEnd(lines, i, Math.min(sectionEnd(lines, i), to));
    return { kind: "heading", start: i, end, label: line.heading.text };
  }
  const item = parseItem(line);
  if (item) {
    const block: Block = {
      kind: "item",
      start: i,
      end: itemEnd(lines, i, to, item.indent),
      label: item.text,
    };
    if (item.checked !== undefined) block.checked = item.checked;
    return block;
  }
  const previous = i > from ? lines[i - 1] : undefined;
  const starts = !previous || isBlank(previous) || previous.heading || previous.fence === "close";
  if (!starts) return undefined;
  return { kind: "paragraph", start: i, end: paragraphEnd(lines, i, to), label: line.text.trim() };
}

export function lineLabel(line: MdLine): string | null {
  if (line.fence !== null || isBlank(line)) return null;
  if (line.heading) return line.heading.text;
  return parseItem(line)?.text ?? line.text.trim();
}

/** Outside fences. */
export function blocksIn(lines: readonly MdLine[], from = 0, to = lines.length): Block[] {
  const blocks: Block[] = [];
  for (let i = from; i < to; i++) {
    const block = blockAt(lines, i, from, to);
    if (block !== undefined) blocks.push(block);
  }
  return blocks;
}
