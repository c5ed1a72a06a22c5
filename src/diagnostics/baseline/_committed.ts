import { existsSync } from "node:fs";
import { join } from "node:path";
import { diffArrays } from "diff";
import { runGit } from "../../match/git.ts";
import { changedOrUntracked } from "../../match/git-prefix.ts";

/** Past this many changed lines, a file counts as rewritten (the diff would cost too much). */
const MAX_EDIT = 4000;

/**
 * The line numbers (1-based) of `current` that are as they were in the last commit, found
 * through a line diff so lines that only moved count too; null when the file is new, not in
 * a repository, or rewritten beyond recognition.
 */
export function linesUnchangedSinceCommit(
  root: string,
  file: string,
  current: readonly string[],
): Set<number> | null {
  const shown = runGit(root, ["show", `HEAD:./${file}`]);
  if (!shown.ok) return null;
  const before = shown.stdout.split("\n");
  const parts = diffArrays(before, [...current], { maxEditLength: MAX_EDIT });
  if (parts === undefined) return null;
  const same = new Set<number>();
  let line = 1;
  for (const part of parts) {
    if (part.removed) continue;
    if (!part.added) for (let i = 0; i < part.count; i++) same.add(line + i);
    line += part.count;
  }
  return same;
}

/** Files looked up at once, at most (a command line's worth); past this, not known. */
const MAX_FILES_LOOKED_UP = 2000;

/**
 * Which of `files` (root-relative) are as in the last commit: on disk, not changed in the
 * work tree nor staged, not untracked (an ignored file counts as unchanged; before the first
 * commit every file is untracked or staged). One `git status` for them all; null when git
 * cannot tell (not a repository, too many files).
 */
export function filesUnchangedSinceCommit(
  root: string,
  files: readonly string[],
): Set<string> | null {
  if (files.length === 0 || files.length > MAX_FILES_LOOKED_UP) return null;
  const listed = changedOrUntracked(root, files);
  if (listed === null) return null;
  const touched = new Set(listed);
  // Not listed and on disk: tracked and clean (or ignored). Not on disk: nothing to say.
  return new Set(files.filter((f) => !touched.has(f) && existsSync(join(root, f))));
}
