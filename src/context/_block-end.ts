/** Where a `<context-update>` block's content ends, knowing about code fences. */

export type BlockEnd =
  | { kind: "closed"; contentEnd: number; end: number }
  /** Another opening tag (outside a fence) came first: this block was never closed. */
  | { kind: "interrupted"; at: number }
  | { kind: "open" };

const CLOSE = /<\/context-update>/gi;
const CLOSE_LENGTH = "</context-update>".length;

function nextClose(text: string, from: number): number {
  CLOSE.lastIndex = from;
  return CLOSE.exec(text)?.index ?? -1;
}
const OPEN = /<context-update(?=[\s/>]|$)/i;
const FENCE_OPEN = /^ {0,3}(`{3,}(?=[^`]*$)|~{3,})/;

/**
 * The first `</context-update>` outside a code fence closes the block. When `final` and a
 * fence never closes, the first closing tag anywhere is used instead.
 */
export function findBlockEnd(text: string, from: number, final: boolean): BlockEnd {
  let close = nextClose(text, from);
  let fence: { char: string; length: number } | null = null;
  let firstCloseInFence = -1;
  let lineStart = from;
  let atLineStart = from === 0 || text[from - 1] === "\n";
  while (lineStart < text.length) {
    const newline = text.indexOf("\n", lineStart);
    const lineEnd = newline === -1 ? text.length : newline;
    const line = text.slice(lineStart, lineEnd);
    if (close !== -1 && close < lineStart) close = nextClose(text, lineStart);
    const closeInLine = close !== -1 && close < lineEnd ? close - lineStart : -1;
    if (fence === null) {
      const open = OPEN.exec(closeInLine === -1 ? line : line.slice(0, closeInLine));
      if (open) return { kind: "interrupted", at: lineStart + open.index };
      if (closeInLine !== -1)
        return { kind: "closed", contentEnd: close, end: close + CLOSE_LENGTH };
      const opener = atLineStart ? FENCE_OPEN.exec(line) : null;
      if (opener?.[1]) fence = { char: opener[1][0] as string, length: opener[1].length };
    } else {
      const before = closeInLine === -1 ? line : line.slice(0, closeInLine);
      const trimmed = before.trim();
      const closesFence =
        /^ {0,3}\S/.test(before) &&
        trimmed.length >= fence.length &&
        [...trimmed].every((ch) => ch === fence?.char);
      if (closesFence) {
        fence = null;
        if (closeInLine !== -1)
          return { kind: "closed", contentEnd: close, end: close + CLOSE_LENGTH };
      } else if (closeInLine !== -1 && firstCloseInFence === -1) {
        firstCloseInFence = close;
      }
    }
    if (newline === -1) break;
    lineStart = newline + 1;
    atLineStart = true;
  }
  if (final && firstCloseInFence !== -1) {
    return { kind: "closed", contentEnd: firstCloseInFence, end: firstCloseInFence + CLOSE_LENGTH };
  }
  return { kind: "open" };
}
