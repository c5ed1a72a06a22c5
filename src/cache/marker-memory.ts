import { statSync } from "node:fs";
import { join } from "node:path";
import { sha1Hex } from "../platform/digest.ts";
import type { MarkerMemory } from "../project/not-own.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { readStateFile } from "../util/state-file.ts";
import { existingGitCacheDir, madeGitCacheDir } from "./git-cache-dir.ts";
import { noteFolderStamped } from "./outside-reads.ts";
import { type Stamp, stampOfStats } from "./stamps.ts";

const FOLDER = "folder-markers";

/** A folder changed more recently may change again within one tick of the file system's clock (FAT's is two seconds). */
const SETTLED_MS = 3000;

const MAX_FOLDERS = 200_000;

const MAX_BYTES = 32 * 1024 * 1024;

export interface KeptMarkerMemory extends MarkerMemory {
  save(): void;
}

/**
 * The folders that held none of the fixed markers when a check last looked, each with its
 * stat: adding, removing or renaming a name sets its ctime, so a folder with the same stat
 * holds the same names. Kept in the git folder, which the agent cannot write: a forged entry
 * would hide a virtualenv. Never throws.
 */
export function markerMemory(root: string): KeptMarkerMemory {
  const name = sha1Hex(root);
  const dir = existingGitCacheDir(root, FOLDER);
  const kept = dir === null ? new Map<string, string>() : load(join(dir, name));
  const settled = Date.now() - SETTLED_MS;
  const taken = new Map<string, string>();
  const learned = new Map<string, string>();
  let changed = false;
  return {
    unchanged(folder, abs) {
      const stamp = stampOf(abs);
      if (stamp === null) return false;
      noteFolderStamped(folder, stamp.whole);
      const was = kept.get(folder);
      if (was === stamp.text) return true;
      if (was !== undefined) {
        kept.delete(folder);
        changed = true;
      }
      if (stamp.settledBy(settled)) taken.set(folder, stamp.text);
      return false;
    },
    holdsNone(folder) {
      const stamp = taken.get(folder);
      if (stamp === undefined) return;
      kept.set(folder, stamp);
      learned.set(folder, stamp);
      changed = true;
    },
    save() {
      if (!changed) return;
      const folders = kept.size > MAX_FOLDERS ? learned : kept;
      try {
        const text = JSON.stringify({ v: 1, folders: Object.fromEntries(folders) });
        writeFileAtomic(join(madeGitCacheDir(root, FOLDER), name), text, { durable: false });
      } catch {
        // not kept: the folders are looked into again next time
      }
    },
  };
}

function stampOf(
  abs: string,
): { text: string; settledBy(ms: number): boolean; whole: Stamp } | null {
  try {
    // through a symlink: a folder swapped for a link elsewhere has another inode
    const s = statSync(abs, { throwIfNoEntry: false });
    if (s === undefined) return null;
    return {
      text: `${s.dev}:${s.ino}:${s.mtimeMs}:${s.ctimeMs}`,
      whole: stampOfStats(s),
      settledBy: (ms) => s.mtimeMs < ms && s.ctimeMs < ms,
    };
  } catch {
    return null;
  }
}

function load(path: string): Map<string, string> {
  const text = readStateFile(path, MAX_BYTES);
  if (text === null) return new Map();
  try {
    const parsed = JSON.parse(text) as { v?: unknown; folders?: unknown };
    const folders = parsed.folders;
    if (parsed.v !== 1 || typeof folders !== "object" || folders === null) return new Map();
    const out = new Map<string, string>();
    for (const [folder, stamp] of Object.entries(folders))
      if (typeof stamp === "string") out.set(folder, stamp);
    return out;
  } catch {
    return new Map();
  }
}
