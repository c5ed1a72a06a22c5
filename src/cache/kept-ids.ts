import { join } from "node:path";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { readStateFile } from "../util/state-file.ts";
import { existingGitCacheDir, madeGitCacheDir } from "./git-cache-dir.ts";

/** A kept id's name: what it was computed from, hashed. */
const NAME = /^[0-9a-f]{40}$/;
const ID = /^[0-9a-f]{40,64}$/;

/**
 * Ids that are costly to compute and never change for what they were computed from (a
 * program's content by its install, a commit's tree), kept one file each under
 * `<git dir>/cpilot/cache/<folder>/<name>` for the next cpilot process: a forged one would
 * change the key a result is replayed under (see git-cache-dir.ts). Never throws: an id
 * that cannot be read or kept (outside git) is computed again.
 */
export function readKeptId(root: string, folder: string, name: string): string | null {
  if (!NAME.test(name)) return null;
  const dir = existingGitCacheDir(root, folder);
  if (dir === null) return null;
  const kept = readStateFile(join(dir, name), 128)?.trim();
  return kept !== undefined && ID.test(kept) ? kept : null;
}

/** Keep `id` under `name` (see {@link readKeptId}). */
export function keepId(root: string, folder: string, name: string, id: string): void {
  if (!NAME.test(name) || !ID.test(id)) return;
  try {
    writeFileAtomic(join(madeGitCacheDir(root, folder), name), `${id}\n`, {
      durable: false,
    });
  } catch {
    // not kept: computed again next time
  }
}
