/**
 * More attacks on `check --staged` through a real `git commit` with the hook `cpilot install
 * git` writes, against the compiled binary: the commit records what the person staged.
 */
import { afterEach, expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { cpilot, pathWithCpilot, runtimeEnv } from "../helpers/binary.ts";
import { removeTempDirs, tempDir, writeFiles } from "../helpers/tmp.ts";

afterEach(removeTempDirs);

const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

function commit(cwd: string): { status: number | null; stderr: string } {
  return spawnSync("git", ["commit", "-qm", "change"], {
    cwd,
    encoding: "utf8",
    env: { PATH: pathWithCpilot(), HOME: process.env.HOME ?? "/root", ...runtimeEnv() },
  });
}

test("a staged file whose place a folder took: the commit records the staged version, not its deletion", () => {
  const root = tempDir("cpilot-attack-staged-folder-", { git: true });
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "ok", pattern: "*.txt", timeout: 30, run: "true" }],
    }),
    "a.txt": "a\n",
  });
  git(root, "add", "-A");
  git(root, "commit", "-qm", "init");
  expect(cpilot(["install", "git"], { cwd: root }).code).toBe(0);
  writeFiles(root, { "a.txt": "staged\n" });
  git(root, "add", "a.txt");
  rmSync(join(root, "a.txt"));
  mkdirSync(join(root, "a.txt"));
  writeFiles(root, { "a.txt/inner": "precious\n" });
  const r = commit(root);
  expect(r.stderr).not.toContain("staged what callbacks fixed");
  // and the person is told the staged version was not what the callbacks saw
  expect(r.stderr).toContain("the staged version of a.txt is not what callbacks see");
  expect(r.status).toBe(0);
  expect(git(root, "show", "HEAD:a.txt")).toBe("staged\n");
  expect(git(root, "ls-files", "--stage", "a.txt")).toContain("a.txt");
  expect(readFileSync(join(root, "a.txt/inner"), "utf8")).toBe("precious\n");
});
