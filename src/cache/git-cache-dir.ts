import { lstatSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { findGitDir } from "../util/git-dir.ts";

/**
 * Where cpilot's caches of check results and of the ids they are keyed by live:
 * `<git dir>/cpilot/cache/`, not `.cpilot/`. A record replays a check's result in the
 * agent's loop, at its stop and at the person's commit, so no file that decides one may be
 * a file the agent can write: the gate refuses its edit tools and patches anywhere in the
 * git folder, and the sandboxes that confine an agent's shell to the project keep `.git/`
 * read-only (Codex's), as they do for the hooks git runs. `.cpilot/` is writable in them.
 * The git folder is found on disk from the root (a GIT_DIR git sets for its hooks may be
 * relative to another folder). Null outside git: nothing is cached there.
 */
export function gitCacheDir(root: string, name: string): string | null {
  const gitDir = findGitDir(root, {});
  return gitDir === null ? null : join(gitDir, "cpilot", "cache", name);
}

/**
 * {@link gitCacheDir} made where missing, each part below the git folder a real folder (a
 * symlink swapped in would send the records elsewhere). Throws when it cannot be.
 */
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

/** The cache folder `name` when it and the folders above it up to the git folder are real ones. */
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
