import { statSync } from "node:fs";
import { join } from "node:path";
import { sha1Hex } from "../platform/digest.ts";
import type { MarkerMemory } from "../project/not-own.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { readStateFile } from "../util/state-file.ts";
import { existingGitCacheDir, madeGitCacheDir } from "./git-cache-dir.ts";

/** Under the git folder's cpilot/cache/: one file per root. */
const FOLDER = "folder-markers";

/**
 * A folder is remembered only when it last changed longer ago than this: one changed just
 * before it was looked into could change again within the same tick of the file system's
 * clock and keep the same times (FAT's tick is two seconds).
 */
const SETTLED_MS = 3000;

/** Past this many folders the memory starts again from one check's folders. */
const MAX_FOLDERS = 200_000;

const MAX_BYTES = 32 * 1024 * 1024;

export interface KeptMarkerMemory extends MarkerMemory {
  /** Keep what this check learned for the next (nothing is written when nothing changed). */
  save(): void;
}

/**
 * The folders of `root` that held none of the fixed markers (pyvenv.cfg, conda-meta,
 * CACHEDIR.TAG, .git) when a check last looked, each with its stat: device, inode,
 * modified and changed times. Making, removing or renaming a name in a folder sets both
 * times to now, and putting the modified time back (`touch -d`) still sets the changed
 * one, so a folder whose stat is the same holds the same names: one stat per folder
 * instead of one per marker. Kept in the git folder, which the agent cannot write (see
 * git-cache-dir.ts): a forged entry would hide a virtualenv. Never throws.
 */
export function markerMemory(root: string): KeptMarkerMemory {
  const name = sha1Hex(root);
  const dir = existingGitCacheDir(root, FOLDER);
  const kept = dir === null ? new Map<string, string>() : load(join(dir, name));
  const settled = Date.now() - SETTLED_MS;
  // stamps taken before a folder was looked into, and those of the folders found clean
  const taken = new Map<string, string>();
  const learned = new Map<string, string>();
  let changed = false;
  return {
    unchanged(folder, abs) {
      const stamp = stampOf(abs);
      if (stamp === null) return false;
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

/** The folder's stat as one string; null when it cannot be read. */
function stampOf(abs: string): { text: string; settledBy(ms: number): boolean } | null {
  try {
    // through a symlink: a folder swapped for a link elsewhere has another inode
    const s = statSync(abs, { throwIfNoEntry: false });
    if (s === undefined) return null;
    return {
      text: `${s.dev}:${s.ino}:${s.mtimeMs}:${s.ctimeMs}`,
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
