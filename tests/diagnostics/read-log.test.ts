import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HOOK_LOG, readLog, readLogBounded } from "../../src/diagnostics/_read-log.ts";
import { tempDir } from "../helpers/tmp.ts";

const BOM = [0xef, 0xbb, 0xbf];
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === "string" ? Buffer.from(p) : Buffer.from(p))));

test("the hook path's log reading gives the very text of the bounded read, whatever the bytes", async () => {
  const dir = tempDir("cpilot-read-log-");
  const files: Record<string, Buffer> = {
    plain: bytes("a.ts(1,7): error TS2322: no.\nsecond line\n"),
    "byte order mark": bytes(BOM, "a.ts(1,7): error TS2322: no.\n"),
    "only a byte order mark": bytes(BOM),
    "a mark further on": bytes("x\n", BOM, "y\n"),
    "invalid UTF-8": bytes("before ", [0xff, 0xfe], " cut ", [0xe2, 0x82]),
    "two bytes": bytes([0xef, 0xbb]),
    empty: bytes(""),
    // Past 8 MB: the first and last 4 MB, joined at line ends.
    huge: bytes(BOM, `${"head line\n".repeat(500_000)}${"tail line\n".repeat(500_000)}`),
  };
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  mkdirSync(join(dir, "a folder"));
  symlinkSync(join(dir, "plain"), join(dir, "a symlink"));
  execFileSync("mkfifo", [join(dir, "a fifo")]);
  for (const name of [...Object.keys(files), "a folder", "a symlink", "a fifo", "missing"]) {
    const path = join(dir, name);
    expect(`${name}: ${JSON.stringify(await readLog(path))}`).toBe(
      `${name}: ${JSON.stringify(readLogBounded(path))}`,
    );
  }
  expect(readLogBounded(join(dir, "byte order mark")).text).toStartWith("\uFEFFa.ts(1,7)");
  expect(readLogBounded(join(dir, "a symlink"))).toEqual({ text: "", skipped: false });
  const huge = readLogBounded(join(dir, "huge"));
  expect(huge.text.length).toBeLessThan(8 * 1024 * 1024 + 1);
  expect(huge.skipped).toBe(true);
  expect(readLogBounded(join(dir, "plain")).skipped).toBe(false);
  // A hook call's bounds: the head and the tail, joined at line ends, and said to be partial.
  for (const read of [readLogBounded, readLog]) {
    const part = await read(join(dir, "huge"), HOOK_LOG);
    expect(part.skipped).toBe(true);
    expect(part.text.length).toBeLessThanOrEqual(HOOK_LOG.head + HOOK_LOG.tail);
    expect(part.text).toStartWith("\uFEFFhead line\n");
    expect(part.text).toEndWith("tail line\n");
    expect(
      part.text
        .split("\n")
        .every((l) => ["\uFEFFhead line", "head line", "tail line", ""].includes(l)),
    ).toBe(true);
  }
});
