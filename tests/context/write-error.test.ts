import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ApplyReport } from "../../src/context/index.ts";
import { REPO, runBun, tempDir } from "./_helpers.ts";

// A real process whose file-size limit (ulimit -f, 1 KiB blocks) makes writes fail:
// 0 → every write fails with EFBIG; 1 → writes past 1 KiB come up short.
const SCRIPT = `import { applyUpdates } from ${JSON.stringify(join(REPO, "src/context/index.ts"))};
const report = applyUpdates(await Bun.stdin.text(), { contextDir: process.cwd(), backup: process.argv[1] === "backup" });
process.stdout.write(JSON.stringify(report));`;

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(() => cleanup());

async function applyLimited(text: string, limit: number, backup = false): Promise<ApplyReport> {
  const run = await runBun(SCRIPT, backup ? ["backup"] : [], {
    cwd: dir,
    stdin: text,
    fileSizeLimit: limit,
  });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as ApplyReport;
}

const ORIGINAL = "## Tasks\n\n- [ ] a\n";
const big = "x".repeat(5000);

test("a failing write leaves the file as it was, with no temp files, and says so", async () => {
  writeFileSync(join(dir, "T.md"), ORIGINAL);
  const report = await applyLimited(
    '<context-update file="T.md" action="complete" id="a"/>\n<context-update file="T.md" action="add">- [ ] b</context-update>',
    0,
  );
  expect(report.results.map((r) => r.ok)).toEqual([false, false]);
  expect(report.results[0]?.error).toStartWith('Cannot write "T.md": ');
  expect(readFileSync(join(dir, "T.md"), "utf8")).toBe(ORIGINAL);
  expect(readdirSync(dir)).toEqual(["T.md"]);
});

test("a failing backup stops the write", async () => {
  writeFileSync(join(dir, "T.md"), ORIGINAL);
  const report = await applyLimited(
    '<context-update file="T.md" action="complete" id="a"/>',
    0,
    true,
  );
  expect(report.results[0]?.ok).toBe(false);
  expect(readFileSync(join(dir, "T.md"), "utf8")).toBe(ORIGINAL);
  expect(readdirSync(dir)).toEqual(["T.md"]);
});

test("a short write is caught and the original restored, never half a file", async () => {
  writeFileSync(join(dir, "T.md"), ORIGINAL);
  const report = await applyLimited(
    `<context-update file="T.md" action="add">${big}</context-update>`,
    1,
  );
  expect(report.results[0]?.ok).toBe(false);
  // The atomic writer now fails the short write itself (EFBIG) before any rename.
  expect(report.results[0]?.error).toStartWith('Cannot write "T.md": ');
  expect(readFileSync(join(dir, "T.md"), "utf8")).toBe(ORIGINAL);
  expect(readdirSync(dir)).toEqual(["T.md"]);
});

test("a short write of a new file removes it", async () => {
  const report = await applyLimited(
    `<context-update file="N.md" action="add">${big}</context-update>`,
    1,
  );
  expect(report.results[0]?.ok).toBe(false);
  expect(existsSync(join(dir, "N.md"))).toBe(false);
});
