import { bun } from "./bun.ts";

/**
 * CRC-32 (IEEE, as zlib) of a string's UTF-8 bytes: Bun's native one, else the same sum in
 * JavaScript, so both read what the other saved. `seed` continues a previous sum:
 * crc32(b, crc32(a)) is crc32(a + b). Bun's function is looked up once: per call it costs more
 * than the sums.
 */
export const crc32: (text: string, seed?: number) => number = bun?.hash.crc32 ?? crc32Portable;

let table: Uint32Array | undefined;

/** Exported for the test that holds it to Bun's. */
export function crc32Portable(text: string, seed = 0): number {
  table ??= makeTable();
  let crc = (seed ^ 0xffffffff) >>> 0;
  for (const byte of new TextEncoder().encode(text))
    crc = (table[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function makeTable(): Uint32Array {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
}
