import { changedOrUntracked } from "../match/git-prefix.ts";
import { isStatePath } from "../util/state-layout.ts";

/**
 * Files git sees as changed or untracked, relative to `root`; null outside a git work tree.
 * Taken before and after callbacks run, it finds files a callback rewrote outside the batch.
 * A root below the repository's top asks for its own files only, named from itself.
 */
export function dirtyFiles(root: string): string[] | null {
  const files = changedOrUntracked(root, []);
  return files === null ? null : files.filter((path) => !isStatePath(path));
}
