import { bun } from "./bun.ts";

/**
 * CRC-32 (IEEE, as zlib computes it) of a string's UTF-8 bytes: Bun's native one, else
 * the same sum in JavaScript (Deno, Node), so both read what the other saved. A hook
 * process fingerprints thousands of strings at once (diagnostics for the baseline): a
 * JavaScript loop over their characters is slow there before the engine compiles it, and
 * node:zlib's own crc32 is slow just to load in Bun.
 * `seed`, a previous sum, continues it (zlib's `crc32(crc, buf)`): crc32(b, crc32(a)) is
 * crc32(a + b), without making the joined string. Bun's function itself, looked up once:
 * reading `Bun.hash.crc32`, or a wrapper's call, on each of thousands of sums costs more
 * than the sums.
 */
export const crc32: (text: string, seed?: number) => number = bun?.hash.crc32 ?? crc32Portable;

let table: Uint32Array | undefined;

/** The JavaScript sum (exported for the test that holds it to Bun's). */
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
