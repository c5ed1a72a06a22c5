// Files named from outside are read only when regular, never past a cap, and hashed in
// slices: a FIFO must not block, /dev/zero must not fill memory.
import { expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { hashRegularFile, readRegularFile } from "../../src/util/read-regular.ts";
import { tempDir } from "../helpers/tmp.ts";

test("a regular file is read up to the cap and hashed in slices", () => {
  const dir = tempDir();
  const big = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
  writeFileSync(join(dir, "big.bin"), big);
  writeFileSync(join(dir, "small.txt"), "hi\n");
  expect(readRegularFile(join(dir, "small.txt"), 10)?.toString()).toBe("hi\n");
  expect(readRegularFile(join(dir, "big.bin"), 1024)).toBeNull();
  expect(hashRegularFile(join(dir, "big.bin"))).toBe(createHash("sha1").update(big).digest("hex"));
  expect(readRegularFile(join(dir, "missing"), 10)).toBeNull();
  expect(hashRegularFile(dir)).toBeNull();
});

test("a FIFO or a device gives null at once", () => {
  const dir = tempDir();
  execFileSync("mkfifo", [join(dir, "fifo")]);
  // in a child with a deadline: a blocked open or read cannot be interrupted from inside
  const module = join(import.meta.dir, "../../src/util/read-regular.ts");
  const script = `const m = await import(${JSON.stringify(module)});
const paths = [${JSON.stringify(join(dir, "fifo"))}, "/dev/zero"];
console.log(JSON.stringify(paths.flatMap((p) => [m.readRegularFile(p, 1 << 30), m.hashRegularFile(p)])));`;
  const r = spawnSync(process.execPath, ["-e", script], { encoding: "utf8", timeout: 30_000 });
  expect(r.signal).toBeNull();
  expect(JSON.parse(r.stdout)).toEqual([null, null, null, null]);
});
