/** Keeps a byte-order mark when there is one. */
import { readFileIn, type VerifiedDir } from "../util/contained-write.ts";
import { decodeUtf8 } from "../util/utf8-text.ts";
import { MAX_CONTEXT_FILE_BYTES, mib } from "./limits.ts";

export type TextFile =
  | { kind: "ok"; text: string; bom: boolean; bytes: Uint8Array }
  | { kind: "missing" }
  | { kind: "error"; message: string };

/** Invalid UTF-8 is an error, not a lossy decode. */
export function decodeTextFile(bytes: Uint8Array): TextFile {
  const decoded = decodeUtf8(bytes);
  if (decoded === null) return { kind: "error", message: "it is not valid UTF-8" };
  return { kind: "ok", text: decoded.text, bom: decoded.bom, bytes };
}

/** Not through a symlink put there since the check, and not when too big to update in memory. */
export function readTextFileIn(dir: VerifiedDir, name: string): TextFile {
  const read = readFileIn(dir, name, MAX_CONTEXT_FILE_BYTES);
  switch (read.kind) {
    case "ok":
      return decodeTextFile(read.bytes);
    case "missing":
      return read;
    case "too-big":
      return {
        kind: "error",
        message: `it is ${mib(read.size)}, over the ${mib(MAX_CONTEXT_FILE_BYTES)} limit for a context file`,
      };
    case "error":
      return { kind: "error", message: read.message };
    default:
      return { kind: "error", message: "it is not a regular file" };
  }
}
