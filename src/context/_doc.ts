/**
 * A markdown document held as scanned lines across one batch's updates: each update
 * rescans and diffs only the lines it touches, so a batch of N updates costs what its
 * changes cost, not N copies of the document.
 */
import { lineLabel } from "./blocks.ts";
import { type Fence, fenceAfter, type MdLine, scanLine, splitLines } from "./markdown.ts";
import { normalizeLabel } from "./match.ts";

/** For tests that count the work. */
export const docWork = { scanned: 0, joined: 0, diffed: 0 };

interface Change {
  readonly start: number;
  readonly removed: readonly MdLine[];
  readonly added: number;
}

/** `[start, end)` of the file now, and what they held. */
interface Region {
  readonly start: number;
  readonly end: number;
  readonly old: readonly MdLine[];
}

export interface DiffStretch {
  readonly before: string;
  readonly after: string;
  /** From 0, in the file before the changes, and after. */
  readonly oldFirst: number;
  readonly newFirst: number;
}

export type DocMark = number;

const utf8Bytes = (line: { text: string; eol: string }): number =>
  Buffer.byteLength(line.text) + line.eol.length;

function sameFence(a: Fence | null, b: Fence | null): boolean {
  return a === b || (a !== null && b !== null && a.char === b.char && a.length === b.length);
}

const joinLines = (lines: readonly MdLine[]): string => {
  let text = "";
  for (const line of lines) text += line.text + line.eol;
  return text;
};

export class MdDoc {
  /** Never changed in place: a change replaces line objects. */
  lines: MdLine[] = [];
  private bytes = 0;
  private crlf = 0;
  private lf = 0;
  private headingIndex: number[] | null = null;
  private log: Change[] = [];
  /** By the normalized label a block starting there would have; built when first asked. */
  private labels: Map<string, Set<MdLine>> | null = null;

  constructor(text: string) {
    let fence: Fence | null = null;
    for (const plain of splitLines(text)) {
      const line = scanLine(plain.text, plain.eol, fence);
      fence = fenceAfter(line, fence);
      this.lines.push(line);
      this.count(line, 1);
    }
    docWork.scanned += this.lines.length;
  }

  /** CRLF when most line endings are; "\n" for a text without any. */
  get eol(): "\n" | "\r\n" {
    return this.crlf > this.lf ? "\r\n" : "\n";
  }

  /** The size of the text in UTF-8 bytes (without a byte order mark). */
  get byteLength(): number {
    return this.bytes;
  }

  text(): string {
    docWork.joined += this.lines.length;
    return joinLines(this.lines);
  }

  headings(): number[] {
    if (this.headingIndex === null) {
      const found: number[] = [];
      this.lines.forEach((line, i) => {
        if (line.heading) found.push(i);
      });
      this.headingIndex = found;
    }
    return this.headingIndex;
  }

  labelled(wanted: string): number[] {
    if (this.labels === null) {
      this.labels = new Map();
      for (const line of this.lines) this.label(line, 1);
    }
    const found = this.labels.get(wanted);
    if (found === undefined) return [];
    return [...found].map((line) => this.lines.indexOf(line)).sort((a, b) => a - b);
  }

  mark(): DocMark {
    return this.log.length;
  }

  /** Keeps line endings: new lines take the document's, and a missing final newline stays missing. */
  splice(start: number, end: number, insert: readonly string[]): void {
    const finalNewline = this.lines.length === 0 || this.lines.at(-1)?.eol !== "";
    const eol = this.eol;
    const fenceIn = this.fenceBefore(start);
    const oldOut = end > start ? this.fenceAfterLine(end - 1) : fenceIn;
    const added: MdLine[] = [];
    let fence = fenceIn;
    for (const text of insert) {
      const line = scanLine(text, eol, fence);
      fence = fenceAfter(line, fence);
      added.push(line);
    }
    docWork.scanned += added.length;
    this.replace(start, end - start, added);
    // Only the old last line can lack a line ending; the new last line follows the file's.
    const last = this.lines.length - 1;
    if (start > 0 && start - 1 < last && this.lines[start - 1]?.eol === "")
      this.setEol(start - 1, eol);
    const lastLine = this.lines[last];
    if (lastLine !== undefined) {
      if (!finalNewline && lastLine.eol !== "") this.setEol(last, "");
      else if (finalNewline && lastLine.eol === "") this.setEol(last, eol);
    }
    this.rescanFrom(start + added.length, fence, oldOut);
  }

  /** Keeps its line ending. */
  setText(index: number, text: string): void {
    const old = this.lines[index] as MdLine;
    const fence = this.fenceBefore(index);
    const line = scanLine(text, old.eol, fence);
    docWork.scanned += 1;
    this.replace(index, 1, [line]);
    this.rescanFrom(index + 1, fenceAfter(line, fence), fenceAfter(old, fence));
  }

  undoTo(mark: DocMark): void {
    while (this.log.length > mark) {
      const change = this.log.pop() as Change;
      const gone = this.lines.splice(change.start, change.added, ...change.removed);
      for (const line of gone) {
        this.count(line, -1);
        this.label(line, -1);
      }
      for (const line of change.removed) {
        this.count(line, 1);
        this.label(line, 1);
      }
    }
    this.headingIndex = null;
  }

  /**
   * Stretches of the file with `context` unchanged lines around each group of changes, their
   * text before and after and where they start (from 0). Only lines near the changes are read.
   */
  diffSince(mark: DocMark, context: number): DiffStretch[] {
    let regions: Region[] = [];
    for (const change of this.log.slice(mark)) {
      const end = change.start + change.removed.length;
      const delta = change.added - change.removed.length;
      const touching = regions.filter((r) => r.end >= change.start && r.start <= end);
      const others = regions.filter((r) => !touching.includes(r));
      let from = change.start;
      let to = end;
      for (const r of touching) {
        from = Math.min(from, r.start);
        to = Math.max(to, r.end);
      }
      const old: MdLine[] = [];
      let at = from;
      for (const r of touching.sort((a, b) => a.start - b.start)) {
        if (r.start > at)
          old.push(...change.removed.slice(at - change.start, r.start - change.start));
        old.push(...r.old);
        at = Math.max(at, r.end);
      }
      if (to > at) old.push(...change.removed.slice(at - change.start, to - change.start));
      const shifted = others.map((r) =>
        r.start > end ? { start: r.start + delta, end: r.end + delta, old: r.old } : r,
      );
      regions = [...shifted, { start: from, end: to + delta, old }].sort(
        (a, b) => a.start - b.start,
      );
    }
    // A diff may slide a change along equal lines (blanks): each stretch reaches twice the
    // context past the changes, so the hunks come out as in the whole file.
    const margin = 2 * context;
    const stretches: DiffStretch[] = [];
    let growth = 0; // lines the regions before this one added
    for (let i = 0; i < regions.length; ) {
      let j = i;
      while (
        j + 1 < regions.length &&
        (regions[j + 1] as Region).start - (regions[j] as Region).end <= 2 * margin
      )
        j++;
      const first = Math.max(0, (regions[i] as Region).start - margin);
      const last = Math.min(this.lines.length, (regions[j] as Region).end + margin);
      const after = this.lines.slice(first, last);
      const before: MdLine[] = [];
      let at = first;
      let added = 0;
      for (let k = i; k <= j; k++) {
        const r = regions[k] as Region;
        before.push(...this.lines.slice(at, r.start), ...r.old);
        added += r.end - r.start - r.old.length;
        at = r.end;
      }
      before.push(...this.lines.slice(at, last));
      docWork.diffed += before.length + after.length;
      stretches.push({
        before: joinLines(before),
        after: joinLines(after),
        oldFirst: first - growth,
        newFirst: first,
      });
      growth += added;
      i = j + 1;
    }
    return stretches;
  }

  private replace(start: number, count: number, added: readonly MdLine[]): void {
    const removed = this.lines.splice(start, count, ...added);
    for (const line of removed) {
      this.count(line, -1);
      this.label(line, -1);
    }
    for (const line of added) {
      this.count(line, 1);
      this.label(line, 1);
    }
    this.log.push({ start, removed, added: added.length });
    this.shiftHeadings(start, removed, added);
  }

  private count(line: MdLine, sign: 1 | -1): void {
    this.bytes += sign * utf8Bytes(line);
    if (line.eol === "\r\n") this.crlf += sign;
    else if (line.eol === "\n") this.lf += sign;
  }

  private label(line: MdLine, sign: 1 | -1): void {
    if (this.labels === null) return;
    const text = lineLabel(line);
    if (text === null) return;
    const key = normalizeLabel(text);
    const set = this.labels.get(key);
    if (sign === 1) {
      if (set === undefined) this.labels.set(key, new Set([line]));
      else set.add(line);
    } else set?.delete(line);
  }

  private setEol(index: number, eol: string): void {
    this.replace(index, 1, [{ ...(this.lines[index] as MdLine), eol }]);
  }

  /** null outside one. */
  private fenceAfterLine(index: number): Fence | null {
    const line = this.lines[index];
    if (line === undefined || line.fence === null || line.fence === "close") return null;
    let open = index;
    while (open > 0 && this.lines[open]?.fence !== "open") open--;
    return fenceAfter(this.lines[open] as MdLine, null);
  }

  private fenceBefore(index: number): Fence | null {
    return index === 0 ? null : this.fenceAfterLine(index - 1);
  }

  /** Only while the fence state going in differs from before the change (`old`). */
  private rescanFrom(index: number, fence: Fence | null, old: Fence | null): void {
    let now = fence;
    let before = old;
    for (let i = index; i < this.lines.length && !sameFence(now, before); i++) {
      const line = this.lines[i] as MdLine;
      before = fenceAfter(line, before);
      const scanned = scanLine(line.text, line.eol, now);
      docWork.scanned += 1;
      this.replace(i, 1, [scanned]);
      now = fenceAfter(scanned, now);
    }
  }

  private shiftHeadings(start: number, removed: readonly MdLine[], added: readonly MdLine[]): void {
    const index = this.headingIndex;
    if (index === null) return;
    const delta = added.length - removed.length;
    const next: number[] = [];
    for (const h of index) if (h < start) next.push(h);
    added.forEach((line, i) => {
      if (line.heading) next.push(start + i);
    });
    for (const h of index) if (h >= start + removed.length) next.push(h + delta);
    this.headingIndex = next;
  }
}
