import { lstatSync } from "node:fs";
import { join } from "node:path";

/**
 * Is `.cpilot/<sub>` below `root` cpilot's own folder: `.cpilot` and each part of `sub` a
 * real directory, not a symlink (or not there yet)? Code that deletes what it finds in a
 * state folder asks first: a symlink committed to a repository, or made by an agent's shell,
 * must not turn pruning old sessions into deleting someone's home folder.
 */
export function isOwnStateDir(root: string, ...sub: string[]): boolean {
  let path = join(root, ".cpilot");
  for (const part of ["", ...sub]) {
    if (part !== "") path = join(path, part);
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (st === undefined) return true;
    if (st.isSymbolicLink() || !st.isDirectory()) return false;
  }
  return true;
}
