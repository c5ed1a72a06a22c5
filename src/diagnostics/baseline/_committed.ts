import { existsSync } from "node:fs";
import { join } from "node:path";
import { diffArrays } from "diff";
import { runGit } from "../../match/git.ts";
import { changedOrUntracked } from "../../match/git-prefix.ts";

const MAX_EDIT = 4000;

/** Lines of `current` as in the last commit (a line diff, so moved lines count); null when new, outside git or rewritten. */
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

/** A command line's worth; past this, not known. */
const MAX_FILES_LOOKED_UP = 2000;

/**
 * Which of `files` are as in the last commit: neither changed nor staged nor untracked (an
 * ignored file counts as unchanged). Null when git cannot tell.
 */
export function filesUnchangedSinceCommit(
  root: string,
  files: readonly string[],
): Set<string> | null {
  if (files.length === 0 || files.length > MAX_FILES_LOOKED_UP) return null;
  const listed = changedOrUntracked(root, files);
  if (listed === null) return null;
  const touched = new Set(listed);
  return new Set(files.filter((f) => !touched.has(f) && existsSync(join(root, f))));
}
