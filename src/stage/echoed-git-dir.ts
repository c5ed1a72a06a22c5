import { resolve } from "node:path";
import { findGitDir } from "../util/git-dir.ts";
import { realOr } from "../util/real-path.ts";

/**
 * Drop GIT_DIR from `env` when it only echoes what git finds from `cwd` on its own. git
 * sets it for its hooks in a linked worktree (`git worktree add`), with the hook's folder
 * the worktree's top; and a GIT_DIR without GIT_WORK_TREE makes git take the folder it runs
 * in for the top. A hook that runs cpilot from a folder below (a monorepo package's config:
 * `cd pkg && cpilot check --staged`) then had every git call of cpilot's, and of its
 * callbacks, see that folder as the top: the wrong files listed, set aside and checked.
 * Where GIT_DIR names another repository than the one around `cwd`, it is the user's
 * choice and stays. Returns whether it was dropped.
 */
export function dropEchoedGitDir(cwd: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const given = env.GIT_DIR;
  if (!given || env.GIT_WORK_TREE) return false;
  const found = findGitDir(cwd, {});
  if (found === null || realOr(found) !== realOr(resolve(cwd, given))) return false;
  delete env.GIT_DIR;
  return true;
}
