import { runGit, splitNul } from "../match/git.ts";
import { gitPrefix } from "../match/git-prefix.ts";
import { isStatePath } from "../util/state-layout.ts";

/**
 * Files git sees as changed or untracked (not ignored), relative to `root`; null outside a
 * git work tree. Taken before and after callbacks run, it finds files a callback rewrote
 * that were not part of the batch (a generator's output, a formatter run on the project).
 * Through runGit: no optional locks (a plain `git status` refreshes and rewrites the index
 * under index.lock, and the person's or the agent's own git command beside it then fails),
 * and names that are not UTF-8 kept as they are. git names files from its top whatever
 * folder it runs in: a root below the top (a config in a subfolder) asks for its own files
 * only (`-- .`) and takes its prefix off them, so a file a callback rewrote is looked at
 * where it is, not at a path one folder too deep (where it was never found: --fail-on-change
 * passed).
 */
export function dirtyFiles(root: string): string[] | null {
  const prefix = gitPrefix(root);
  if (prefix === null) return null;
  const r = runGit(root, [
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=all",
    "--no-renames",
    ...(prefix === "" ? [] : ["--", "."]),
  ]);
  if (!r.ok) return null;
  const files: string[] = [];
  for (const entry of splitNul(r.stdout)) {
    if (entry.length <= 3 || !entry.startsWith(prefix, 3)) continue;
    const path = entry.slice(3 + prefix.length);
    // cpilot's own run logs and state are never a callback's rewrite.
    if (path !== "" && !isStatePath(path)) files.push(path);
  }
  return files;
}
