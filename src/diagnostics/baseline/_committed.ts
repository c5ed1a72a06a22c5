import { diffArrays } from "diff";
import { runGit } from "../../match/git.ts";

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
