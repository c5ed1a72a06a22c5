import { lstatSync, realpathSync } from "node:fs";
import { writeFileAtomic } from "../../util/atomic-write.ts";
import { noteStateTrouble } from "../../util/bookkeeping.ts";
import { LockTimeout, lockDirSync } from "../../util/dir-lock.ts";
import { stateDir } from "../../util/state-dir.ts";
import { readStateBytes } from "../../util/state-file.ts";
import { STATE, statePath } from "../../util/state-layout.ts";
import { openVerifiedDir } from "../../util/verified-dir.ts";
import {
  decodeBaseline,
  encodeWith,
  type FileEntries,
  knownCleanInBytes,
  NO_BASELINE,
  type SavedFiles,
} from "./_binary.ts";

/**
 * What a check found in one content, as numbers to stay cheap on the hook path: per
 * diagnostic its fingerprint, line, source line hash (-1 unknown) and 0; a record that may
 * lack some ends with an entry of -1s.
 */
export type { FileEntries } from "./_binary.ts";
export { STRIDE } from "./_binary.ts";

export type Baseline = SavedFiles;

/** Records plus diagnostics kept per callback: past this, the ones saved longest ago are dropped. */
export const MAX_ENTRIES = 20_000;
const LOCK_WAIT_MS = 5000;
const MAX_BYTES = 8 * 1024 * 1024;

function baselinePath(root: string, callback: string): string {
  return statePath(root, STATE.baseline, `${callback}.bin`);
}

export interface ReadBaseline {
  readonly files: Baseline;
  readonly version: string | null;
}

export interface SavedBaseline {
  readonly bytes: Uint8Array | null;
  readonly version: string | null;
}

/** Each save replaces the file (a new inode): an equal answer later means nobody saved in between. */
function savedVersion(root: string, callback: string): string {
  const st = lstatSync(baselinePath(root, callback), { throwIfNoEntry: false });
  return st === undefined ? "none" : `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
}

export function readSavedBaseline(root: string, callback: string): SavedBaseline {
  const version = savedVersion(root, callback);
  const bytes = version === "none" ? null : readStateBytes(baselinePath(root, callback), MAX_BYTES);
  return { bytes, version: savedVersion(root, callback) === version ? version : null };
}

export function knownCleanInSaved(saved: SavedBaseline, keys: readonly string[]): boolean {
  return saved.bytes !== null && knownCleanInBytes(saved.bytes, keys);
}

export function decodeSaved(saved: SavedBaseline): Baseline {
  return saved.bytes === null ? NO_BASELINE : (decodeBaseline(saved.bytes) ?? NO_BASELINE);
}

export function readBaseline(root: string, callback: string): Baseline {
  return decodeSaved(readSavedBaseline(root, callback));
}

/**
 * Save this run's findings into the callback's baseline. Under the callback's lock the
 * baseline is read again (unless still the version `known`) and only this run's files are
 * replaced, so concurrent runs never drop each other's. Best effort: trouble is told once.
 */
export function updateBaseline(
  root: string,
  callback: string,
  seen: ReadonlyMap<string, FileEntries>,
  known?: ReadBaseline,
): boolean {
  let dir: ReturnType<typeof openVerifiedDir> | undefined;
  let unlock: (() => void) | undefined;
  try {
    // Checked by its real path: a project reached through a symlink is still the same folder.
    dir = openVerifiedDir(realpathSync(stateDir(root, STATE.baseline)), "");
    unlock = lockDirSync(dir, `${callback}.lock`, LOCK_WAIT_MS);
    const version = savedVersion(root, callback);
    const now =
      known?.version != null && version === known.version
        ? known.files
        : readBaseline(root, callback);
    writeFileAtomic(baselinePath(root, callback), encodeWith(now, seen, MAX_ENTRIES), {
      durable: false,
    });
    return true;
  } catch (err) {
    noteStateTrouble(
      root,
      err instanceof LockTimeout ? new Error(`the baseline of "${callback}": ${err.message}`) : err,
    );
    return false;
  } finally {
    unlock?.();
    dir?.close();
  }
}
