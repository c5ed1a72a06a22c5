import { expect, test } from "bun:test";
import fc from "fast-check";
import { crc32, crc32Portable } from "../../src/platform/crc32.ts";

test("the JavaScript CRC-32 is Bun's (a baseline saved by one runtime reads in the other)", () => {
  // zlib's own values: crc32("hello") and crc32("") are well known.
  expect(crc32Portable("hello")).toBe(0x3610a686);
  expect(crc32Portable("")).toBe(0);
  for (const s of ["a\0b", "é 日本 🎉", "tsc\0error\0TS2322\0Type 'string' is not assignable"])
    expect(crc32Portable(s)).toBe(crc32(s));
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), (s) => crc32Portable(s) === crc32(s)),
    { numRuns: 300 },
  );
});

test("a sum continued from a seed is the sum of the joined text, in both (keys hash in parts)", () => {
  fc.assert(
    fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (a, b) => {
      const joined = crc32(a + b);
      return crc32(b, crc32(a)) === joined && crc32Portable(b, crc32Portable(a)) === joined;
    }),
    { numRuns: 300 },
  );
});
