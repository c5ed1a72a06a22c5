import { join } from "node:path";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { stateDir } from "../util/state-dir.ts";
import { readStateFile } from "../util/state-file.ts";
import { STATE, statePath } from "../util/state-layout.ts";

/** A kept id's name: what it was computed from, hashed. */
const NAME = /^[0-9a-f]{40}$/;
const ID = /^[0-9a-f]{40,64}$/;

/**
 * Ids that are costly to compute and never change for what they were computed from (a
 * program's content by its install, a commit's tree), kept one file each under
 * `.cpilot/cache/<folder>/<name>` for the next cpilot process. Never throws: an id that
 * cannot be read or kept is computed again.
 */
export function readKeptId(root: string, folder: string, name: string): string | null {
  if (!NAME.test(name)) return null;
  const kept = readStateFile(statePath(root, STATE.cache, folder, name), 128)?.trim();
  return kept !== undefined && ID.test(kept) ? kept : null;
}

/** Keep `id` under `name` (see {@link readKeptId}). */
export function keepId(root: string, folder: string, name: string, id: string): void {
  if (!NAME.test(name) || !ID.test(id)) return;
  try {
    writeFileAtomic(join(stateDir(root, STATE.cache, folder), name), `${id}\n`, {
      durable: false,
    });
  } catch {
    // not kept: computed again next time
  }
}
