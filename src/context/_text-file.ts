/** Reading and writing context files as UTF-8, keeping a byte-order mark when there is one. */
import { readFileSync } from "node:fs";

const BOM = [0xef, 0xbb, 0xbf];
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export type TextFile =
  | { kind: "ok"; text: string; bom: boolean; bytes: Uint8Array }
  | { kind: "missing" }
  | { kind: "error"; message: string };

/** Read a file as UTF-8 text; invalid UTF-8 is an error, not a lossy decode. */
export function readTextFile(path: string): TextFile {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { kind: "missing" };
    return { kind: "error", message: (err as Error).message };
  }
  const bom = BOM.every((byte, i) => bytes[i] === byte);
  try {
    return { kind: "ok", text: decoder.decode(bom ? bytes.subarray(3) : bytes), bom, bytes };
  } catch {
    return { kind: "error", message: "it is not valid UTF-8" };
  }
}

/** The bytes to write for `text`, with a byte-order mark when the original had one. */
export function encodeText(text: string, bom: boolean): Uint8Array {
  const body = Buffer.from(text, "utf8");
  return bom ? Buffer.concat([Buffer.from(BOM), body]) : body;
}
