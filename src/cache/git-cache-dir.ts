import { lstatSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { findGitDir } from "../util/git-dir.ts";

/**
 * Where caches of check results and their keys' ids live: `<git dir>/cpilot/cache/`, not
 * `.cpilot/`. A record decides whether a check passes, so it must be a file the agent cannot
 * write: the gate refuses edits in the git folder, and agent sandboxes keep `.git/` read-only.
 * Null outside git: nothing is cached there.
 */
export function gitCacheDir(root: string, name: string): string | null {
  const gitDir = findGitDir(root, {});
  return gitDir === null ? null : join(gitDir, "cpilot", "cache", name);
}

/** Made where missing, each part a real folder (a symlink swapped in would send records elsewhere). Throws when it cannot be. */
export function madeGitCacheDir(root: string, name: string): string {
  const gitDir = findGitDir(root, {});
  if (gitDir === null) throw new Error("not in a git repository");
  let path = gitDir;
  for (const part of ["cpilot", "cache", name]) {
    path = join(path, part);
    try {
      mkdirSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    if (!realFolder(path)) throw new Error(`${path} is not a folder of its own`);
  }
  return path;
}

export function existingGitCacheDir(root: string, name: string): string | null {
  const dir = gitCacheDir(root, name);
  if (dir === null) return null;
  const parts = [join(dir, "..", ".."), join(dir, ".."), dir];
  return parts.every(realFolder) ? dir : null;
}

function realFolder(path: string): boolean {
  const st = lstatSync(path, { throwIfNoEntry: false });
  return st !== undefined && !st.isSymbolicLink() && st.isDirectory();
}
