import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import {
  dirname,
  holdsAFile,
  join,
  mkdirSync,
  writeFileSync,
} from "../../src/stage/byte-name-fs.ts";
import { tempDir } from "../helpers/tmp.ts";

test("join and dirname keep a name's kept bytes (node:path would make them U+FFFD)", () => {
  expect(join("/r", "caf\udce9/x.txt")).toBe("/r/caf\udce9/x.txt");
  expect(join("/r", "a", "..", "b\udcff", "")).toBe("/r/b\udcff");
  expect(dirname("/r/caf\udce9/x\udcfe.txt")).toBe("/r/caf\udce9");
  expect(join("/r", "plain.txt")).toBe("/r/plain.txt");
});

test("fs calls reach the file with the name's own bytes; holdsAFile looks into such folders", () => {
  const root = tempDir("cpilot-byte-name-fs-");
  expect(holdsAFile(root)).toBe(false);
  mkdirSync(join(root, "d\udce9"), { recursive: true });
  expect(holdsAFile(root)).toBe(false);
  writeFileSync(join(root, "d\udce9", "f\udcff"), "x");
  expect(readdirSync(root, { encoding: "buffer" })).toEqual([Buffer.from([0x64, 0xe9])]);
  expect(readdirSync(Buffer.from(`${root}/d\xe9`, "latin1"), { encoding: "buffer" })).toEqual([
    Buffer.from([0x66, 0xff]),
  ]);
  expect(holdsAFile(root)).toBe(true);
});
