import { expect, test } from "bun:test";
import { decodeBytes, encodeBytes, viaPathModule } from "../../src/util/path-bytes.ts";

test("any bytes survive decode then encode; valid UTF-8 decodes as usual", () => {
  for (let n = 0; n < 2000; n++) {
    const bytes = Buffer.from(
      Array.from({ length: 1 + (n % 12) }, () => Math.floor(Math.random() * 256)),
    );
    expect(encodeBytes(decodeBytes(bytes))).toEqual(bytes);
  }
  const text = "ok-é-😀-\uf8ff.txt";
  expect(decodeBytes(Buffer.from(text))).toBe(text);
  expect(decodeBytes(Buffer.from([0x63, 0xe9]))).toBe("c\udce9");
  // an encoded surrogate (ED A0 80) is not UTF-8: three kept bytes
  expect(decodeBytes(Buffer.from([0xed, 0xa0, 0x80]))).toBe("\udced\udca0\udc80");
});

test("node:path computations keep the bytes, and a name's own U+F8FF", () => {
  const name = "dir/caf\udce9-\uf8ff.txt";
  expect(viaPathModule(`/r/${name}`, (p) => p.slice(3))).toBe(name);
});
