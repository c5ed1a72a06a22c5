import { splitNul } from "../match/git.ts";
import { gitOnPaths } from "./git-paths.ts";

const ARGS = [
  "status",
  "--porcelain=v2",
  "-z",
  "--no-renames",
  "--ignore-submodules=all",
  "--untracked-files=no",
];

/**
 * Which of `paths` (from the top) differ from the index in the working tree: what
 * `git diff --name-only` says, asked of `git status` instead. When a file matches the
 * index but for its stat data (a version cpilot checked out, a file put back), `git diff`
 * takes the index lock and rewrites the whole index, after a stat of every tracked file,
 * whatever GIT_OPTIONAL_LOCKS says; `git status` compares the
 * named files only and, with optional locks off, writes nothing. Throws a CpilotError when
 * git fails.
 */
export function worktreeChanges(top: string, paths: readonly string[], action: string): string[] {
  if (paths.length === 0) return [];
  const changed: string[] = [];
  for (const record of splitNul(gitOnPaths(top, ARGS, paths, action))) {
    // "1 XY sub mH mI mW hH hI path"; "u XY sub m1 m2 m3 mW h1 h2 h3 path" (unmerged: listed
    // by `git diff` too)
    const type = record[0];
    if (type === "1" && record[3] !== ".") changed.push(fieldsAfter(record, 8));
    else if (type === "u") changed.push(fieldsAfter(record, 10));
  }
  return changed;
}

/** The rest of `record` after `n` space-separated fields (a path may hold spaces). */
function fieldsAfter(record: string, n: number): string {
  let at = 0;
  for (let i = 0; i < n; i++) at = record.indexOf(" ", at) + 1;
  return record.slice(at);
}
