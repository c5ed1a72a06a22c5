/**
 * Attacks on `cpilot check` whose config sits below the repository's top (a package of a
 * monorepo), against the compiled binary: git names files from its top, the config's
 * callbacks from the config's folder.
 */
import { expect, test } from "bun:test";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { cpilot, pathWithCpilot, runtimeEnv } from "../helpers/binary.ts";
import { committedRepo, tempDir, writeFiles } from "../helpers/tmp.ts";
import { treeState } from "../helpers/tree-state.ts";

const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

test("--fail-on-change fails when a callback rewrites a file of a config below the top that was not in the batch", () => {
  const top = tempDir("cpilot-attack-sub-", { git: true });
  const root = join(top, "pkg");
  mkdirSync(root);
  writeFiles(root, {
    "callbacks.config.json": JSON.stringify({
      callbacks: [
        { name: "gen", pattern: "*.txt", timeout: 30, fixes: true, run: "echo new > gen.out" },
      ],
    }),
    "a.txt": "a\n",
    "gen.out": "old\n",
  });
  git(top, "add", "-A");
  git(top, "commit", "-qm", "init");
  const r = cpilot(["check", "--all", "--fail-on-change"], { cwd: root });
  expect(r.stderr).toContain("gen.out");
  expect(r.code).toBe(1);
});

test("git commit in a linked worktree whose hook runs check --staged from the config's folder: the staged content is checked, the work kept", () => {
  const main = committedRepo("cpilot-attack-wt-", {
    "pkg/callbacks.config.json": JSON.stringify({
      callbacks: [
        // passes only on the staged text, where it is: in pkg/
        { name: "staged-only", pattern: "*.txt", timeout: 30, run: 'test "$(cat a.txt)" = staged' },
      ],
    }),
    "pkg/a.txt": "a\n",
    "top.txt": "t\n",
  });
  // a monorepo's own hook: the package's check, from the package's folder
  writeFiles(main, {
    ".git/hooks/pre-commit": "#!/bin/sh\ncd pkg && exec cpilot check --staged\n",
  });
  chmodSync(join(main, ".git/hooks/pre-commit"), 0o755);
  const wt = join(tempDir("cpilot-attack-wt-linked-"), "wt");
  git(main, "worktree", "add", "-q", wt, "-b", "side");
  writeFiles(wt, { "pkg/a.txt": "staged\n" });
  git(wt, "add", "pkg/a.txt");
  writeFiles(wt, { "pkg/a.txt": "staged\nunstaged\n", "top.txt": "t\nmine\n", "pkg/u.txt": "u\n" });
  const commit = spawnSync("git", ["commit", "-qm", "change"], {
    cwd: wt,
    encoding: "utf8",
    env: { PATH: pathWithCpilot(), HOME: process.env.HOME ?? "/root", ...runtimeEnv() },
  });
  expect(commit.stderr).toContain("1 run passed");
  expect(commit.status).toBe(0);
  expect(git(wt, "show", "HEAD:pkg/a.txt")).toBe("staged\n");
  expect(readFileSync(join(wt, "pkg/a.txt"), "utf8")).toBe("staged\nunstaged\n");
  expect(readFileSync(join(wt, "top.txt"), "utf8")).toBe("t\nmine\n");
  expect(readFileSync(join(wt, "pkg/u.txt"), "utf8")).toBe("u\n");
  expect(git(wt, "status", "--porcelain=v1", "--untracked-files=all")).toBe(
    " M pkg/a.txt\n M top.txt\n?? pkg/u.txt\n",
  );
});

test("check --staged --config naming the config's folder: a clear error, the stage folder let go and the work as it was", () => {
  const top = committedRepo("cpilot-attack-config-dir-", {
    "pkg/callbacks.config.json": JSON.stringify({
      callbacks: [{ name: "ok", pattern: "*.txt", timeout: 30, run: "true" }],
    }),
    "pkg/a.txt": "a\n",
  });
  writeFiles(top, { "pkg/a.txt": "staged\n" });
  git(top, "add", "pkg/a.txt");
  writeFiles(top, { "pkg/a.txt": "staged\nunstaged\n", "u.txt": "u\n" });
  const before = treeState(top);
  const r = cpilot(["check", "--staged", "--config", "pkg"], { cwd: top });
  expect(r.stderr).toContain('Cannot read config "pkg": it is a folder');
  expect(r.stderr).toContain("--config pkg/callbacks.config.json");
  expect(r.code).toBe(2);
  expect(treeState(top)).toEqual(before);
  const again = cpilot(["check", "--staged", "--config", "pkg/callbacks.config.json"], {
    cwd: top,
  });
  expect(again.code).toBe(0);
  // the package's own .cpilot (run logs) aside, as it was
  const after = Object.entries(treeState(top)).filter(([k]) => !k.startsWith("pkg/.cpilot/"));
  expect(Object.fromEntries(after)).toEqual(before);
});

test("--config through a symlink to the repository: --staged and --changed still check the package's files", () => {
  const top = committedRepo("cpilot-attack-link-", {
    "pkg/callbacks.config.json": JSON.stringify({
      callbacks: [
        { name: "staged-only", pattern: "*.txt", timeout: 30, run: 'test "$(cat a.txt)" = staged' },
      ],
    }),
    "pkg/a.txt": "a\n",
  });
  writeFiles(top, { "pkg/a.txt": "staged\n" });
  git(top, "add", "pkg/a.txt");
  writeFiles(top, { "pkg/a.txt": "staged\nunstaged\n" });
  // the repository as a shell's $PWD may name it: through a symlink
  const link = join(tempDir("cpilot-attack-link-to-"), "repo");
  symlinkSync(top, link);
  const config = join(link, "pkg", "callbacks.config.json");
  const staged = cpilot(["check", "--staged", "--config", config], { cwd: top });
  expect(staged.stderr).toContain("1 run passed on 1 file");
  expect(staged.code).toBe(0);
  expect(readFileSync(join(top, "pkg/a.txt"), "utf8")).toBe("staged\nunstaged\n");
  // the working copy is not what the callback wants: --changed must see a.txt and fail
  const changed = cpilot(["check", "--changed", "--config", config], { cwd: top });
  expect(changed.stderr).toContain("staged-only");
  expect(changed.code).toBe(1);
});

test("a config in a folder whose name holds a backslash (a plain character here): --staged and --changed check its files", () => {
  const top = tempDir("cpilot-attack-backslash-", { git: true });
  const pkg = "p\\kg";
  writeFiles(top, {
    [`${pkg}/callbacks.config.json`]: JSON.stringify({
      callbacks: [{ name: "fails", pattern: "*.txt", timeout: 30, run: "exit 1" }],
    }),
    [`${pkg}/a.txt`]: "a\n",
  });
  git(top, "add", "-A");
  git(top, "commit", "-qm", "init");
  writeFiles(top, { [`${pkg}/a.txt`]: "staged\n" });
  git(top, "add", "-A");
  const root = join(top, pkg);
  const staged = cpilot(["check", "--staged"], { cwd: root });
  expect(staged.stderr).toContain("fails");
  expect(staged.code).toBe(1);
  const changed = cpilot(["check"], { cwd: root });
  expect(changed.stderr).toContain("fails");
  expect(changed.code).toBe(1);
});
