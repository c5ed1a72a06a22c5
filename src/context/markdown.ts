/**
 * A line scanner for markdown that knows code fences: a heading-looking line inside a
 * ``` or ~~~ fence is content, never a heading, and nothing edits inside a fence.
 */

export interface MdLine {
  /** The line without its line ending. */
  text: string;
  /** "\n", "\r\n", or "" for a last line without a line ending. */
  eol: string;
  /** Role in a code fence: its opening line, a line inside, its closing line; null outside. */
  fence: "open" | "body" | "close" | null;
  /** Set for an ATX heading outside fences. */
  heading?: { level: number; text: string };
}

const FENCE_OPEN = /^\s*(`{3,}(?=[^`]*$)|~{3,})/;
const HEADING = /^ {0,3}(#{1,6})(?=[ \t]|$)(.*)$/;

/** "\r\n" when most line endings are CRLF, else "\n" (also for text without line endings). */
export function detectEol(text: string): "\n" | "\r\n" {
  const crlf = text.split("\r\n").length - 1;
  const lf = text.split("\n").length - 1 - crlf;
  return crlf > lf ? "\r\n" : "\n";
}

/** Split into lines that keep their own line endings; `joinLines` is the exact inverse. */
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

/** Concatenate lines with their line endings. */
export function joinLines(lines: ReadonlyArray<{ text: string; eol: string }>): string {
  let text = "";
  for (const line of lines) text += line.text + line.eol;
  return text;
}

/** The heading of a line outside fences, if it is one. */
export function parseHeading(text: string): { level: number; text: string } | undefined {
  const match = HEADING.exec(text);
  if (!match) return undefined;
  const rest = (match[2] ?? "").replace(/(^|[ \t]+)#+[ \t]*$/, "").trim();
  return { level: (match[1] ?? "").length, text: rest };
}

/** Split `text` into lines and mark fences and headings. */
export function scanMarkdown(text: string): MdLine[] {
  const out: MdLine[] = [];
  let fence: { char: string; length: number } | null = null;
  for (const { text: line, eol } of splitLines(text)) {
    if (fence !== null) {
      const trimmed = line.trim();
      const closes = trimmed.length >= fence.length && [...trimmed].every((c) => c === fence?.char);
      out.push({ text: line, eol, fence: closes ? "close" : "body" });
      if (closes) fence = null;
      continue;
    }
    const opener = FENCE_OPEN.exec(line)?.[1];
    if (opener !== undefined) {
      fence = { char: opener[0] as string, length: opener.length };
      out.push({ text: line, eol, fence: "open" });
      continue;
    }
    const heading = parseHeading(line);
    out.push(
      heading ? { text: line, eol, fence: null, heading } : { text: line, eol, fence: null },
    );
  }
  return out;
}

/** True for an empty or whitespace-only line. */
export function isBlank(line: { text: string }): boolean {
  return line.text.trim() === "";
}
