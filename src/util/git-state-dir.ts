import { lstatSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { sha1Hex } from "../platform/digest.ts";
import { findRepository } from "./git-dir.ts";

/**
 * cpilot's records that decide what an agent is held to (a session's turn record, its
 * protected changes, its results and stop counters) live in `<git dir>/cpilot/<parts...>`,
 * not `.cpilot/`: the gate refuses the agent's edit tools and patches anywhere in the git
 * folder, and a sandbox that keeps `.git/` read-only (Codex's) keeps its shell out, while
 * `.cpilot/` is writable in both. Null outside git (the caller keeps `.cpilot/`). The git
 * folder is found on disk from the root; a project below the work tree's top gets its own
 * folder there (named by a hash of its path), so two projects of one repository never share records.
 */
export function gitStatePath(root: string, ...parts: string[]): string | null {
  const repo = findRepository(root, {});
  if (repo === null) return null;
  const base = join(repo.gitDir, "cpilot");
  return join(base, ...projectPart(root, repo.top), ...parts);
}

/**
 * {@link gitStatePath} made where missing, each folder below the git folder a real one of
 * its own (a symlink swapped in would send the records elsewhere): throws when it is not.
 * Null outside git.
 */
export function madeGitStateDir(root: string, ...parts: string[]): string | null {
  const repo = findRepository(root, {});
  if (repo === null) return null;
  let path = repo.gitDir;
  for (const part of ["cpilot", ...projectPart(root, repo.top), ...parts]) {
    path = join(path, part);
    try {
      mkdirSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    if (!realFolder(path))
      throw new Error(`Cannot save cpilot's state in "${path}": it is not a folder of its own`);
  }
  return path;
}

/** True when every folder from `<git dir>/cpilot` down to `path` is a real one (or missing). */
export function ownGitStatePath(root: string, ...parts: string[]): boolean {
  const repo = findRepository(root, {});
  if (repo === null) return false;
  let path = repo.gitDir;
  for (const part of ["cpilot", ...projectPart(root, repo.top), ...parts]) {
    path = join(path, part);
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (st === undefined) return true;
    if (st.isSymbolicLink() || !st.isDirectory()) return false;
  }
  return true;
}

/** The extra folder of a project that is not the work tree's top (or has none git knows). */
function projectPart(root: string, top: string | null): string[] {
  const here = resolve(root);
  if (top !== null && top === here) return [];
  return ["projects", sha1Hex(here).slice(0, 16)];
}

function realFolder(path: string): boolean {
  const st = lstatSync(path, { throwIfNoEntry: false });
  return st !== undefined && !st.isSymbolicLink() && st.isDirectory();
}
