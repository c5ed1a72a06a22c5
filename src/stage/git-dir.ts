import { statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { readTextOrEmpty } from "../util/read-text.ts";

/**
 * The git directory of the work tree holding `from` (a linked worktree's own one), found
 * on disk without starting git: every cpilot call looks here for changes an interrupted
 * `check --staged` set aside, so it must cost a few stat calls, not a process.
 * Honours GIT_DIR as git does. Null outside git.
 */
export function findGitDir(from: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.GIT_DIR) return resolve(from, env.GIT_DIR);
  let dir = resolve(from);
  for (;;) {
    const dotGit = join(dir, ".git");
    const stat = statSync(dotGit, { throwIfNoEntry: false });
    if (stat?.isDirectory()) return dotGit;
    if (stat?.isFile()) {
      // a linked worktree or a submodule: ".git" is a file saying "gitdir: <path>"
      const line = /^gitdir: (.+)$/m.exec(readTextOrEmpty(dotGit))?.[1]?.trim();
      if (line) return isAbsolute(line) ? line : resolve(dir, line);
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}
