import { statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { readTextOrEmpty } from "./read-text.ts";

/**
 * The git directory of the work tree holding `from`, found on disk without git: every call
 * looks here for work a `check --staged` set aside, so it must cost a few stats. Honours GIT_DIR.
 */
export function findGitDir(from: string, env: NodeJS.ProcessEnv = process.env): string | null {
  return findRepository(from, env)?.gitDir ?? null;
}

/** With the work tree's top (GIT_WORK_TREE when set; null with a GIT_DIR alone). */
export function findRepository(
  from: string,
  env: NodeJS.ProcessEnv = process.env,
): { readonly gitDir: string; readonly top: string | null } | null {
  if (env.GIT_DIR) {
    const top = env.GIT_WORK_TREE ? resolve(from, env.GIT_WORK_TREE) : null;
    return { gitDir: resolve(from, env.GIT_DIR), top };
  }
  let dir = resolve(from);
  for (;;) {
    const dotGit = join(dir, ".git");
    const stat = statSync(dotGit, { throwIfNoEntry: false });
    if (stat?.isDirectory()) return { gitDir: dotGit, top: dir };
    if (stat?.isFile()) {
      // a linked worktree or a submodule: ".git" is a file saying "gitdir: <path>"
      const line = /^gitdir: (.+)$/m.exec(readTextOrEmpty(dotGit))?.[1]?.trim();
      if (line) return { gitDir: isAbsolute(line) ? line : resolve(dir, line), top: dir };
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}
