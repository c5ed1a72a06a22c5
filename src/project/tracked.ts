import { runGit } from "../match/git.ts";

/**
 * True when git tracks `relPath` (relative to `root`): the person committed or added it.
 * A file an agent just made through its shell is not, so it cannot change who judges what.
 */
export function isTracked(root: string, relPath: string): boolean {
  return runGit(root, ["ls-files", "--error-unmatch", "--", relPath]).ok;
}
