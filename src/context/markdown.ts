/** Markdown lines with code fences known: inside a fence nothing is a heading, and nothing edits there. */

export interface MdLine {
  text: string;
  /** "" for a last line without a line ending. */
  eol: string;
  fence: "open" | "body" | "close" | null;
  /** Outside fences. */
  heading?: { level: number; text: string };
}

const FENCE_OPEN = /^\s*(`{3,}(?=[^`]*$)|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?=[ \t]|$)(.*)$/;

/** `joinLines` is the exact inverse. */
export function splitLines(text: string): Array<{ text: string; eol: string }> {
  const lines: Array<{ text: string; eol: string }> = [];
  let at = 0;
  while (at < text.length) {
    const newline = text.indexOf("\n", at);
    if (newline === -1) {
      lines.push({ text: text.slice(at), eol: "" });
      break;
    }
    const cr = newline > at && text[newline - 1] === "\r";
    lines.push({ text: text.slice(at, cr ? newline - 1 : newline), eol: cr ? "\r\n" : "\n" });
    at = newline + 1;
  }
  return lines;
}

export function joinLines(lines: ReadonlyArray<{ text: string; eol: string }>): string {
  let text = "";
  for (const line of lines) text += line.text + line.eol;
  return text;
}

export function parseHeading(text: string): { level: number; text: string } | undefined {
  const match = HEADING.exec(text);
  if (!match) return undefined;
  const rest = (match[2] ?? "").replace(/(^|[ \t]+)#+[ \t]*$/, "").trim();
  return { level: (match[1] ?? "").length, text: rest };
}

/** An open code fence: its character and how many of them opened it. */
export interface Fence {
  readonly char: string;
  readonly length: number;
}

export function scanLine(text: string, eol: string, fence: Fence | null): MdLine {
  if (fence !== null) {
    const trimmed = text.trim();
    const closes = trimmed.length >= fence.length && [...trimmed].every((c) => c === fence.char);
    return { text, eol, fence: closes ? "close" : "body" };
  }
  if (FENCE_OPEN.exec(text)?.[1] !== undefined) return { text, eol, fence: "open" };
  const heading = parseHeading(text);
  return heading ? { text, eol, fence: null, heading } : { text, eol, fence: null };
}

export function fenceAfter(line: MdLine, fence: Fence | null): Fence | null {
  if (line.fence === "close") return null;
  if (line.fence === "open") {
    const opener = FENCE_OPEN.exec(line.text)?.[1] ?? "```";
    return { char: opener[0] as string, length: opener.length };
  }
  return fence;
}

export function scanMarkdown(text: string): MdLine[] {
  const out: MdLine[] = [];
  let fence: Fence | null = null;
  for (const { text: line, eol } of splitLines(text)) {
    const scanned = scanLine(line, eol, fence);
    fence = fenceAfter(scanned, fence);
    out.push(scanned);
  }
  return out;
}

export function isBlank(line: { text: string }): boolean {
  return line.text.trim() === "";
}
