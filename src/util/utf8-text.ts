/** UTF-8 text files as cpilot reads and writes them: strict decoding, a byte-order mark kept. */

const BOM = "\uFEFF";
// ignoreBOM keeps a BOM in the decoded text, so the caller learns there was one and a write can restore it.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Text with its byte-order mark, if any, split off. */
export interface Utf8Text {
  readonly text: string;
  readonly bom: boolean;
}

/** Split a leading byte-order mark off decoded text. */
export function splitBom(raw: string): Utf8Text {
  const bom = raw.startsWith(BOM);
  return { text: bom ? raw.slice(1) : raw, bom };
}

/** Decode bytes as UTF-8; null when they are not valid UTF-8 (never a lossy decode). */
export function decodeUtf8(bytes: Uint8Array): Utf8Text | null {
  try {
    return splitBom(decoder.decode(bytes));
  } catch {
    return null;
  }
}

/** `text` with a byte-order mark in front when `bom`. */
export function withBom(text: string, bom: boolean): string {
  return bom ? `${BOM}${text}` : text;
}

/** The bytes to write for `text`, with a byte-order mark when `bom`. */
export function encodeUtf8(text: string, bom: boolean): Uint8Array {
  return Buffer.from(withBom(text, bom), "utf8");
}
