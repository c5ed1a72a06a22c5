import { runGit, splitNul } from "../match/git.ts";
import { isStatePath } from "../util/state-layout.ts";

/**
 * Files git sees as changed or untracked (not ignored), relative to `root`; null outside a
 * git work tree. Taken before and after callbacks run, it finds files a callback rewrote
 * that were not part of the batch (a generator's output, a formatter run on the project).
 * Through runGit: no optional locks (a plain `git status` refreshes and rewrites the index
 * under index.lock, and the person's or the agent's own git command beside it then fails),
 * and names that are not UTF-8 kept as they are.
 */
export function dirtyFiles(root: string): string[] | null {
  const r = runGit(root, [
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=all",
    "--no-renames",
  ]);
  if (!r.ok) return null;
  const files: string[] = [];
  for (const entry of splitNul(r.stdout)) {
    // cpilot's own run logs and state are never a callback's rewrite.
    if (entry.length > 3 && !isStatePath(entry.slice(3))) files.push(entry.slice(3));
  }
  return files;
}
