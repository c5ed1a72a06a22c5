/**
 * HEAD's commit read from the git folder without git, against what `git rev-parse HEAD`
 * says in each shape a repository's refs take; null (git is asked) wherever it is unsure.
 */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { headCommit } from "../../src/stage/head-commit.ts";
import { tempDir } from "../helpers/tmp.ts";

const git = (cwd: string, ...args: string[]): string =>
  execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

function repo(): string {
  const root = tempDir("cpilot-head-", { git: true });
  writeFileSync(join(root, "a.txt"), "a\n");
  git(root, "add", "a.txt");
  git(root, "-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qm", "one");
  return root;
}

function commit(root: string, text: string): void {
  writeFileSync(join(root, "a.txt"), text);
  git(root, "-c", "user.email=t@example.invalid", "-c", "user.name=t", "commit", "-qam", text);
}

test("a branch as a loose ref, then packed, then loose again over its packed line", () => {
  const root = repo();
  const gitDir = join(root, ".git");
  expect(headCommit(gitDir)).toBe(git(root, "rev-parse", "HEAD"));
  git(root, "pack-refs", "--all");
  expect(headCommit(gitDir)).toBe(git(root, "rev-parse", "HEAD"));
  // the loose ref is newer than packed-refs' line, which git keeps
  commit(root, "two\n");
  expect(headCommit(gitDir)).toBe(git(root, "rev-parse", "HEAD"));
});

test("a detached HEAD, and a linked worktree's own HEAD through its commondir", () => {
  const root = repo();
  const first = git(root, "rev-parse", "HEAD");
  commit(root, "two\n");
  const linked = join(tempDir("cpilot-head-wt-"), "wt");
  git(root, "worktree", "add", "-q", "-b", "other", linked, first);
  const linkedDir = git(linked, "rev-parse", "--absolute-git-dir");
  expect(headCommit(linkedDir)).toBe(first);
  expect(headCommit(join(root, ".git"))).toBe(git(root, "rev-parse", "HEAD"));
  git(root, "checkout", "-q", "--detach", first);
  expect(headCommit(join(root, ".git"))).toBe(first);
});

test("null where it cannot be sure: no commit yet, a ref it cannot read, a symbolic ref, GIT_COMMON_DIR", () => {
  const empty = tempDir("cpilot-head-empty-", { git: true });
  expect(headCommit(join(empty, ".git"))).toBeNull();

  const root = repo();
  const gitDir = join(root, ".git");
  const branch = git(root, "symbolic-ref", "HEAD");
  git(root, "pack-refs", "--all");
  const one = git(root, "rev-parse", "HEAD");
  commit(root, "two\n");
  // unreadable loose ref: packed-refs' line is older, never taken for it
  rmSync(join(gitDir, branch));
  mkdirSync(join(gitDir, branch));
  expect(headCommit(gitDir)).toBeNull();
  rmSync(join(gitDir, branch), { recursive: true });

  writeFileSync(join(gitDir, branch), "ref: refs/heads/elsewhere\n");
  expect(headCommit(gitDir)).toBeNull();
  writeFileSync(join(gitDir, "HEAD"), "ref: refs/heads/../../config\n");
  expect(headCommit(gitDir)).toBeNull();
  writeFileSync(join(gitDir, "HEAD"), `ref: ${branch}\n`);
  writeFileSync(join(gitDir, branch), `${one}\n`);
  expect(headCommit(gitDir, { GIT_COMMON_DIR: gitDir })).toBeNull();
  expect(headCommit(gitDir, {})).toBe(one);
});
