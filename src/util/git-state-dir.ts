import { lstatSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { sha1Hex } from "../platform/digest.ts";
import { findRepository } from "./git-dir.ts";

/**
 * Records that decide what an agent is held to live in `<git dir>/cpilot/`, not `.cpilot/`:
 * the gate refuses agent edits in the git folder and sandboxes keep `.git/` read-only. Null
 * outside git. A project below the top gets a folder of its own (a hash of its path).
 */
export function gitStatePath(root: string, ...parts: string[]): string | null {
  const repo = findRepository(root, {});
  if (repo === null) return null;
  const base = join(repo.gitDir, "cpilot");
  return join(base, ...projectPart(root, repo.top), ...parts);
}

/** Made where missing, each folder a real one (a symlink swapped in would send records elsewhere). */
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

function projectPart(root: string, top: string | null): string[] {
  const here = resolve(root);
  if (top !== null && top === here) return [];
  return ["projects", sha1Hex(here).slice(0, 16)];
}

function realFolder(path: string): boolean {
  const st = lstatSync(path, { throwIfNoEntry: false });
  return st !== undefined && !st.isSymbolicLink() && st.isDirectory();
}
