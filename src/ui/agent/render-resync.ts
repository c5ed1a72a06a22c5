import type { Resync } from "../../model/outcome.ts";

export const MAX_DIFF_LINES = 60;

/**
 * A file a callback rewrote, as the hunks of a unified diff, so the agent's next edit's old
 * text matches what is on disk.
 *
 * @example
 * // @@ -1,2 +1,2 @@
 * // -const a  = 1
 * // +const a = 1;
 */
export function renderResync(resync: Resync, maxLines = MAX_DIFF_LINES): string {
  if (resync.newText === null) {
    return `~ a callback deleted ${resync.path} after your edit: it is gone from disk`;
  }
  if (!resync.diff.includes("@@")) {
    const why = resync.diff.includes("large batch")
      ? "too many files to diff"
      : "too large to diff";
    return `~ a callback rewrote ${resync.path} after your edit (${why}): Read it again before you edit it`;
  }
  const hunks = resync.diff
    .split("\n")
    .filter((line) => !line.startsWith("--- ") && !line.startsWith("+++ "));
  while (hunks.length > 0 && hunks.at(-1) === "") hunks.pop();
  const head = `~ a callback rewrote ${resync.path} after your edit; the file on disk differs from what you wrote (unified diff, - yours, + now):`;
  if (hunks.length <= maxLines) return `${head}\n${hunks.join("\n")}`;
  return `${head}\n${hunks.slice(0, maxLines).join("\n")}\n… (${hunks.length - maxLines} more diff lines: Read ${resync.path} again before you edit it)`;
}
