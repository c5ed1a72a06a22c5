import type { ChangeKind, FileChange } from "../model/batch.ts";
import { isStatePath } from "../util/state-layout.ts";
import { splitNul } from "./git.ts";

/** `A` added, `D` deleted; anything else (M, T, U, X) is a change. */
function kindOf(letter: string | undefined): ChangeKind {
  return letter === "A" ? "created" : letter === "D" ? "deleted" : "modified";
}

/**
 * Parse `git diff --name-status -z`: `STATUS NUL path NUL`, or `R100 NUL old NUL new NUL`. A
 * rename is a creation and a deletion, a copy a creation; later entries win.
 */
export function parseNameStatus(
  stdout: string,
  into = new Map<string, ChangeKind>(),
): Map<string, ChangeKind> {
  const fields = splitNul(stdout);
  for (let i = 0; i < fields.length; ) {
    const status = fields[i++]!;
    const letter = status[0];
    if (letter === "R" || letter === "C") {
      const from = fields[i++];
      const to = fields[i++];
      if (letter === "R" && from !== undefined) into.set(from, "deleted");
      if (to !== undefined) into.set(to, "created");
    } else {
      const path = fields[i++];
      if (path !== undefined) into.set(path, kindOf(letter));
    }
  }
  return into;
}

/** Anything under cpilot's own `.cpilot/` is dropped. */
export function toChanges(map: ReadonlyMap<string, ChangeKind>): FileChange[] {
  const changes: FileChange[] = [];
  for (const [path, kind] of map) if (!isStatePath(path)) changes.push({ path, kind });
  return changes;
}
