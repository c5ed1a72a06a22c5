/** GIT_DIR as a linked worktree's hook gets it is dropped; one naming another repository stays. */
import { expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { dropEchoedGitDir } from "../../src/stage/echoed-git-dir.ts";
import { tempDir } from "../helpers/tmp.ts";

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, stdio: "pipe" });

function linkedWorktree(): { main: string; wt: string } {
  const main = tempDir("cpilot-echo-", { git: true });
  git(main, "commit", "-q", "--allow-empty", "-m", "init");
  const wt = join(tempDir("cpilot-echo-wt-"), "wt");
  git(main, "worktree", "add", "-q", wt);
  mkdirSync(join(wt, "pkg"));
  return { main, wt };
}

test("a linked worktree's own git folder, seen from a folder below its top: dropped", () => {
  const { main, wt } = linkedWorktree();
  const env: NodeJS.ProcessEnv = { GIT_DIR: join(main, ".git", "worktrees", "wt") };
  expect(dropEchoedGitDir(join(wt, "pkg"), env)).toBe(true);
  expect(env.GIT_DIR).toBeUndefined();
});

test("another repository's git folder, or one given with GIT_WORK_TREE: kept", () => {
  const { wt } = linkedWorktree();
  const other = tempDir("cpilot-echo-other-", { git: true });
  const env: NodeJS.ProcessEnv = { GIT_DIR: join(other, ".git") };
  expect(dropEchoedGitDir(join(wt, "pkg"), env)).toBe(false);
  expect(env.GIT_DIR).toBe(join(other, ".git"));
  const both: NodeJS.ProcessEnv = { GIT_DIR: join(wt, ".git"), GIT_WORK_TREE: wt };
  expect(dropEchoedGitDir(join(wt, "pkg"), both)).toBe(false);
  expect(both.GIT_DIR).toBe(join(wt, ".git"));
});
