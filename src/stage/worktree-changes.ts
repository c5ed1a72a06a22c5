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
 * Which of `paths` differ from the index, asked of `git status`: `git diff` would take the
 * index lock and rewrite the whole index for files whose stat alone changed. Throws a
 * CpilotError when git fails.
 */
export function worktreeChanges(top: string, paths: readonly string[], action: string): string[] {
  if (paths.length === 0) return [];
  const changed: string[] = [];
  for (const record of splitNul(gitOnPaths(top, ARGS, paths, action))) {
    // "1 XY sub mH mI mW hH hI path"; "u XY sub m1 m2 m3 mW h1 h2 h3 path" (unmerged, which
    // `git diff` lists too)
    const type = record[0];
    if (type === "1" && record[3] !== ".") changed.push(fieldsAfter(record, 8));
    else if (type === "u") changed.push(fieldsAfter(record, 10));
  }
  return changed;
}

function fieldsAfter(record: string, n: number): string {
  let at = 0;
  for (let i = 0; i < n; i++) at = record.indexOf(" ", at) + 1;
  return record.slice(at);
}
