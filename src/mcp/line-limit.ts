// The MCP SDK's stdio transport buffers input until a newline and, past its buffer limit,
// closes the connection: the server then ended silently (exit 0) on one big message. This
// reader sits in front of it: whole lines pass on in one piece (so the SDK concatenates
// once per message, not once per chunk), and a line over the limit is dropped as it
// streams in, never held whole, and answered with a JSON-RPC error; the server keeps going.
import type * as NodeStream from "node:stream";
import { nodeBuiltin } from "../platform/builtin.ts";

/**
 * Largest message read: a write_file of the largest file edits take (10 MiB of text, see
 * MAX_TEXT_BYTES) fits with room for JSON escaping (three times the size).
 */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/** Bytes of a dropped message kept to find its id. */
const HEAD_BYTES = 64 * 1024;

export interface Oversize {
  /** Bytes of the dropped line. */
  readonly bytes: number;
  /** The request's id when its first bytes tell it, else null. */
  readonly id: string | number | null;
}

/** Read a JSON string starting at `i` (its opening quote); its end index and text. */
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

/** The top-level `"id"` of a JSON object from its first bytes, or null when they do not tell. */
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

/**
 * `input` split into lines of at most `max` bytes, each passed on whole with its newline;
 * a longer line is dropped and reported to `onOversize`.
 */
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
