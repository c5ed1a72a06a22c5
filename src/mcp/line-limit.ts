// The MCP SDK's stdio transport closes the connection when a line outgrows its buffer,
// ending the server silently. This reader passes whole lines on in one piece, and drops a
// line over the limit as it streams (never held whole), answering it with a JSON-RPC error.
import type * as NodeStream from "node:stream";
import { nodeBuiltin } from "../platform/builtin.ts";

/** A write_file of the largest editable file (MAX_TEXT_BYTES) fits, with room for JSON escaping. */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/** Kept to find its id. */
const HEAD_BYTES = 64 * 1024;

export interface Oversize {
  readonly bytes: number;
  /** null when its first bytes do not tell. */
  readonly id: string | number | null;
}

/** `i` at its opening quote. */
function readString(text: string, i: number): { end: number; value: string } | null {
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === "\\") j++;
    else if (text[j] === '"') {
      try {
        return { end: j + 1, value: JSON.parse(text.slice(i, j + 1)) as string };
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** null when the first bytes do not tell. */
export function topLevelId(head: string): string | number | null {
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const ch = head[i];
    if (ch === "{" || ch === "[") depth++;
    else if (ch === "}" || ch === "]") depth--;
    else if (ch === '"') {
      const key = readString(head, i);
      if (key === null) return null;
      i = key.end - 1;
      if (depth !== 1 || key.value !== "id") continue;
      const rest = /^\s*:\s*/.exec(head.slice(key.end));
      if (rest === null) continue;
      const at = key.end + rest[0].length;
      if (head[at] === '"') return readString(head, at)?.value ?? null;
      const num = /^-?\d+/.exec(head.slice(at));
      return num === null ? null : Number(num[0]);
    }
  }
  return null;
}

/** A longer line is dropped and reported to `onOversize`. */
export function limitLines(
  input: NodeStream.Readable,
  max: number,
  onOversize: (oversize: Oversize) => void,
): NodeStream.Transform {
  const { Transform } = nodeBuiltin<typeof NodeStream>("node:stream");
  let parts: Buffer[] = [];
  let size = 0;
  let head: Buffer | null = null;
  let dropped = 0;
  const add = (piece: Buffer) => {
    if (head !== null) {
      dropped += piece.length;
      return;
    }
    if (size + piece.length <= max) {
      parts.push(piece);
      size += piece.length;
      return;
    }
    head = Buffer.concat([...parts, piece]).subarray(0, HEAD_BYTES);
    dropped = size + piece.length;
    parts = [];
    size = 0;
  };
  const lines = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      let start = 0;
      for (;;) {
        const newline = chunk.indexOf(10, start);
        if (newline === -1) {
          if (start < chunk.length) add(chunk.subarray(start));
          break;
        }
        add(chunk.subarray(start, newline + 1));
        start = newline + 1;
        if (head !== null) {
          const id = topLevelId(head.toString("utf8"));
          onOversize({ bytes: dropped, id });
          head = null;
          dropped = 0;
        } else {
          this.push(parts.length === 1 ? parts[0] : Buffer.concat(parts));
          parts = [];
          size = 0;
        }
      }
      callback();
    },
    flush(callback) {
      if (head !== null) onOversize({ bytes: dropped, id: topLevelId(head.toString("utf8")) });
      else if (parts.length > 0) this.push(Buffer.concat(parts));
      callback();
    },
  });
  input.on("error", (err) => lines.destroy(err));
  return input.pipe(lines);
}
