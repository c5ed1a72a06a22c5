const BOM = "\uFEFF";
// ignoreBOM keeps a BOM in the text, so a write can restore it.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

export interface Utf8Text {
  readonly text: string;
  readonly bom: boolean;
}

export function splitBom(raw: string): Utf8Text {
  const bom = raw.startsWith(BOM);
  return { text: bom ? raw.slice(1) : raw, bom };
}

/** Null when not valid UTF-8: never a lossy decode. */
export function decodeUtf8(bytes: Uint8Array): Utf8Text | null {
  try {
    return splitBom(decoder.decode(bytes));
  } catch {
    return null;
  }
}

export function withBom(text: string, bom: boolean): string {
  return bom ? `${BOM}${text}` : text;
}

export function encodeUtf8(text: string, bom: boolean): Uint8Array {
  return Buffer.from(withBom(text, bom), "utf8");
}
