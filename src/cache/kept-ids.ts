import { join } from "node:path";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { readStateFile } from "../util/state-file.ts";
import { existingGitCacheDir, madeGitCacheDir } from "./git-cache-dir.ts";

const NAME = /^[0-9a-f]{40}$/;
const ID = /^[0-9a-f]{40,64}$/;

/**
 * Ids costly to compute that never change for their source, kept under the git folder: a
 * forged one would change the key a result replays under. Never throws.
 */
export function readKeptId(root: string, folder: string, name: string): string | null {
  if (!NAME.test(name)) return null;
  const dir = existingGitCacheDir(root, folder);
  if (dir === null) return null;
  const kept = readStateFile(join(dir, name), 128)?.trim();
  return kept !== undefined && ID.test(kept) ? kept : null;
}

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
