import { gitFailure, runGitAsync, splitNul } from "../match/git.ts";
import type { FileChange } from "../model/batch.ts";

/** A tracked file whose working copy is not what the index holds. */
export interface UnstagedChange {
  /** Relative to the work tree's top, `/` separators. */
  readonly path: string;
  /** Deleted from the working tree but still in the index. */
  readonly deleted: boolean;
}

/** What `check --staged` finds before it runs anything. */
export interface Survey {
  /** What the commit records: index against HEAD, paths from the top. */
  readonly staged: FileChange[];
  /** What differs between the index and the working tree: set aside while callbacks run. */
  readonly unstaged: UnstagedChange[];
  /** Untracked files that are not ignored; empty when not asked for. */
  readonly untracked: string[];
}

/**
 * Ask git once, with `git status --porcelain=v2` (one process, one pass over the tree with
 * git's threaded stat): what is staged (index against HEAD), which tracked files differ in
 * the working tree, and, unless `untracked` is false, which files are untracked and not
 * ignored. Content is compared, not timestamps: a file that was only touched is no change
 * and does not set the dance going. `stateDir` (cpilot's own `.cpilot/`, as seen from the
 * top) is never set aside: runs write their logs there. Submodules are left alone.
 */
export async function surveyTree(
  top: string,
  options: { untracked: boolean; stateDir: string },
): Promise<Survey> {
  const args = [
    "status",
    "--porcelain=v2",
    "-z",
    "--no-renames",
    "--ignore-submodules=all",
    options.untracked ? "--untracked-files=all" : "--untracked-files=no",
  ];
  const r = await runGitAsync(top, args);
  if (!r.ok) throw gitFailure(top, args, r, "list staged and unstaged changes");
  const mine = (path: string): boolean =>
    path === options.stateDir || path.startsWith(`${options.stateDir}/`);
  const staged: FileChange[] = [];
  const unstaged: UnstagedChange[] = [];
  const untracked: string[] = [];
  for (const record of splitNul(r.stdout)) {
    const type = record[0];
    if (type === "?") {
      const path = record.slice(2);
      // a nested repository is listed as its folder, with a trailing slash: it stays
      if (!path.endsWith("/") && !mine(path)) untracked.push(path);
      continue;
    }
    // "1 XY sub mH mI mW hH hI path" ("u" for unmerged has more fields, and no commit has one)
    if (type !== "1") continue;
    const path = fieldsAfter(record, 8);
    if (path === null || mine(path)) continue;
    const x = record[2];
    const y = record[3];
    if (x !== ".") {
      staged.push({ path, kind: x === "A" ? "created" : x === "D" ? "deleted" : "modified" });
    }
    // `git add -N` (intent to add): not in the commit, so set aside as an untracked file
    if (y === "A" && x === ".") untracked.push(path);
    else if (y !== ".") unstaged.push({ path, deleted: y === "D" });
  }
  return { staged, unstaged, untracked };
}

/** The rest of `record` after `n` space-separated fields (a path may hold spaces). */
function fieldsAfter(record: string, n: number): string | null {
  let at = 0;
  for (let i = 0; i < n; i++) {
    at = record.indexOf(" ", at) + 1;
    if (at === 0) return null;
  }
  return record.slice(at);
}
