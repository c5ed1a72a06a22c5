import { existsSync } from "node:fs";
import { join } from "node:path";
import type { ProjectSnapshot } from "../cache/content.ts";
import type { FileChange } from "../model/batch.ts";
import type { IndexLook } from "./index-look.ts";

/** What git said is staged, with the index's "<mode> <blob id>" of each path. */
interface StagedRead {
  readonly head: string;
  readonly staged: readonly FileChange[];
  readonly indexed: ReadonlyMap<string, string>;
}

/** Index modes whose blob id is the id of the file's bytes (not a link's target, nor a submodule). */
const REGULAR_MODES = new Set(["100644", "100755"]);

/**
 * Keyed by what the index holds, never by the tree, which is not set aside yet: for a check
 * that may replay every result from the index alone. Null when the index cannot key it all.
 */
export async function pinnedProject(top: string, look: IndexLook): Promise<ProjectSnapshot | null> {
  const content = await import("../cache/content.ts");
  const changed = stagedIds(top, look, new Map(), content.NO_CONTENT);
  if (changed === null) return null;
  return content.ProjectSnapshot.pinned(top, look.head, changed, look.configs, look.indexed);
}

/**
 * From what the survey read, so the cache's keys need no `git status`: only when nothing
 * was set aside, the staged files matched the index, no index bit or submodule hides a
 * file, and each is a regular file or a deletion. Else null: git is asked again.
 */
export async function seededProject(
  top: string,
  read: StagedRead,
  bits: ReadonlyMap<string, unknown>,
): Promise<ProjectSnapshot | null> {
  const { NO_CONTENT, ProjectSnapshot } = await import("../cache/content.ts");
  const changed = stagedIds(top, read, bits, NO_CONTENT);
  return changed === null ? null : ProjectSnapshot.seeded(top, read.head, changed);
}

/** The staged files' content ids, where each is a regular file or a deletion, no index bit or submodule in the way; else null. */
function stagedIds(
  top: string,
  read: StagedRead,
  bits: ReadonlyMap<string, unknown>,
  none: string,
): Map<string, string> | null {
  if (bits.size > 0 || existsSync(join(top, ".gitmodules"))) return null;
  const changed = new Map<string, string>();
  for (const change of read.staged) {
    const [mode, id] = (read.indexed.get(change.path) ?? "").split(" ");
    if (change.kind === "deleted") changed.set(change.path, none);
    else if (mode !== undefined && REGULAR_MODES.has(mode) && id) changed.set(change.path, id);
    else return null;
  }
  return changed;
}
