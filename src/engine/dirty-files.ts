import { changedOrUntracked } from "../match/git-prefix.ts";
import { isStatePath } from "../util/state-layout.ts";

/**
 * Files git sees as changed or untracked (not ignored), relative to `root`; null outside a
 * git work tree. Taken before and after callbacks run, it finds files a callback rewrote
 * that were not part of the batch (a generator's output, a formatter run on the project).
 * A root below the repository's top (a config in a subfolder) asks for its own files only
 * and names them from itself, so a file a callback rewrote is looked at where it is, not at
 * a path one folder too deep (where it was never found: --fail-on-change passed).
 */
export function dirtyFiles(root: string): string[] | null {
  const files = changedOrUntracked(root, []);
  // cpilot's own run logs and state are never a callback's rewrite.
  return files === null ? null : files.filter((path) => !isStatePath(path));
}
