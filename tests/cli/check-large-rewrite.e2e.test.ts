import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { cpilot } from "../helpers/binary.ts";
import { tempDir, writeFiles } from "../helpers/tmp.ts";

/**
 * A large check in the terminal does not read every file before its runs (their line counts
 * are not worth that): a rewrite is still named. CI (--fail-on-change) and --json, which
 * show the diff, still get it.
 */
function project(): string {
  const root = tempDir("cpilot-large-rewrite-", { git: true });
  const files: Record<string, string> = {
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "fix", pattern: "*.ts", run: "echo fixed > a7.ts", timeout: 30 }],
    }),
  };
  for (let i = 0; i < 150; i++) files[`a${i}.ts`] = `v${i}\n`;
  writeFiles(root, files);
  execFileSync("git", ["add", "-A"], { cwd: root }); // --all lists what git tracks
  return root;
}

test("past 100 files a terminal check names a rewrite without its line counts", () => {
  const root = project();
  const r = cpilot(["check", "--all"], { cwd: root, env: { CI: "" } });
  expect(r.stderr).toMatch(/~ a callback rewrote a7\.ts\n/);
});

test("--json and --fail-on-change still carry the diff of a large check's rewrite", () => {
  const root = project();
  const json = cpilot(["check", "--all", "--json"], { cwd: root, env: { CI: "" } });
  const resync = JSON.parse(json.stdout).resyncs.find((r: { path: string }) => r.path === "a7.ts");
  expect(resync.diff).toContain("-v7\n+fixed");
  writeFiles(root, { "a7.ts": "v7\n" });
  const ci = cpilot(["check", "--all", "--fail-on-change"], { cwd: root });
  expect(ci.code).not.toBe(0);
  expect(ci.stderr + ci.stdout).toContain("-v7\n+fixed");
});
