import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { gitStatePath, madeGitStateDir, ownGitStatePath } from "../../src/util/git-state-dir.ts";
import { tempDir } from "../helpers/tmp.ts";

test("a session's folder is in the git folder; outside git there is none", () => {
  const repo = tempDir("cpilot-gsd-", { git: true });
  expect(gitStatePath(repo, "sessions", "s1")).toBe(join(repo, ".git/cpilot/sessions/s1"));
  expect(madeGitStateDir(repo, "sessions", "s1")).toBe(join(repo, ".git/cpilot/sessions/s1"));
  expect(gitStatePath(tempDir("cpilot-gsd-plain-"), "sessions")).toBeNull();
});

test("two projects in one repository get folders of their own", () => {
  const repo = tempDir("cpilot-gsd-", { git: true });
  mkdirSync(join(repo, "a"));
  mkdirSync(join(repo, "b"));
  const a = gitStatePath(join(repo, "a"), "sessions", "s1");
  const b = gitStatePath(join(repo, "b"), "sessions", "s1");
  expect(a).not.toBe(b);
  expect(a?.startsWith(join(repo, ".git/cpilot/projects/"))).toBe(true);
});

test("a symlink on the way is neither made through nor read", () => {
  const repo = tempDir("cpilot-gsd-", { git: true });
  const elsewhere = tempDir("cpilot-gsd-elsewhere-");
  mkdirSync(join(repo, ".git/cpilot"));
  symlinkSync(elsewhere, join(repo, ".git/cpilot/sessions"));
  expect(() => madeGitStateDir(repo, "sessions", "s1")).toThrow("not a folder of its own");
  expect(ownGitStatePath(repo, "sessions", "s1")).toBe(false);
});
