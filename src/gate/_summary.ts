import { readFileSync } from "node:fs";
import { structuredPatch } from "diff";
import type { PendingWrite } from "../model/gate-types.ts";

const DIFF_LINES = 20;

/** For diffing a plugin's change. */
export function intendedContent(write: PendingWrite, absolute: string): string {
  if (write.content !== undefined) return write.content;
  let current = "";
  try {
    current = readFileSync(absolute, "utf8");
  } catch {
    return write.newString ?? "";
  }
  if (write.oldString === undefined || write.newString === undefined) return current;
  return write.replaceAll === true
    ? current.split(write.oldString).join(write.newString)
    : current.replace(write.oldString, () => write.newString as string);
}

/** "content changed: +N/-M lines" and the first lines of a unified diff. */
export function contentSummary(before: string, after: string, name: string): string {
  const patch = structuredPatch(name, name, before, after, "", "", { context: 1 });
  let added = 0;
  let removed = 0;
  const lines: string[] = [];
  for (const hunk of patch.hunks) {
    lines.push(`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`);
    for (const line of hunk.lines) {
      if (line.startsWith("+")) added++;
      else if (line.startsWith("-")) removed++;
      lines.push(line);
    }
  }
  const shown = lines.slice(0, DIFF_LINES);
  if (lines.length > DIFF_LINES) shown.push(`… (${lines.length - DIFF_LINES} more diff lines)`);
  return `content changed: +${added}/-${removed} lines\n${shown.join("\n")}`;
}
