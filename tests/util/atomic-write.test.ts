import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../src/util/atomic-write.ts";
import { tempDir } from "../helpers/tmp.ts";

test("a file written in pieces holds them in order, replaces the old one whole and keeps its mode", () => {
  const dir = tempDir("cpilot-atomic-");
  const path = join(dir, "state.bin");
  writeFileSync(path, "old content", { mode: 0o600 });
  const pieces = [new Uint8Array([1, 2, 3]), new Uint8Array(0), new Float64Array([0.5]), "end"].map(
    (p) =>
      typeof p === "string"
        ? new TextEncoder().encode(p)
        : new Uint8Array(p.buffer, p.byteOffset, p.byteLength),
  );
  writeFileAtomic(path, pieces, { durable: false });
  const expected = Buffer.concat(pieces);
  expect(readFileSync(path).equals(expected)).toBe(true);
  expect(statSync(path).mode & 0o777).toBe(0o600);
  // No temp file left beside it.
  expect(readdirSync(dir)).toEqual(["state.bin"]);
  writeFileAtomic(path, "text", { durable: false });
  expect(readFileSync(path, "utf8")).toBe("text");
});
