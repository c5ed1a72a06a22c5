import { resolve } from "node:path";
import { findGitDir } from "../util/git-dir.ts";
import { realOr } from "../util/real-path.ts";

/**
 * Drop GIT_DIR from `env` when it only echoes what git finds from `cwd`: git sets it for hooks
 * in a linked worktree, and without GIT_WORK_TREE git would take a subfolder (`cd pkg && cpilot
 * check --staged`) for the top. A GIT_DIR naming another repository is the user's and stays.
 */
export function dropEchoedGitDir(cwd: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const given = env.GIT_DIR;
  if (!given || env.GIT_WORK_TREE) return false;
  const found = findGitDir(cwd, {});
  if (found === null || realOr(found) !== realOr(resolve(cwd, given))) return false;
  delete env.GIT_DIR;
  return true;
}
