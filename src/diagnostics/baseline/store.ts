import { lstatSync, realpathSync } from "node:fs";
import { writeFileAtomic } from "../../util/atomic-write.ts";
import { LockTimeout, lockDirSync } from "../../util/dir-lock.ts";
import { stateDir } from "../../util/state-dir.ts";
import { readStateBytes } from "../../util/state-file.ts";
import { STATE, statePath } from "../../util/state-layout.ts";
import { noteStateTrouble } from "../../util/state-trouble.ts";
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
 * What a check found in one content (see ./_record-keys.ts), as numbers only, to stay cheap
 * to read, compare and write on the hook path (thousands of diagnostics in a file): four
 * per diagnostic in `e`: the fingerprint of its tool, severity, code and message (what must
 * be equal), its line, the lineHash of the source line it was on (-1 when unknown), and 0;
 * a record that may lack some ends with an entry of -1s (./_entries.ts). Saved as bytes
 * (./_binary.ts).
 */
export type { FileEntries } from "./_binary.ts";
/** Numbers per diagnostic in {@link FileEntries.e}. */
export { STRIDE } from "./_binary.ts";

/** Records by key, in the order last saved (the oldest first). */
export type Baseline = SavedFiles;

/** Records plus diagnostics kept per callback: past this, the ones saved longest ago are dropped. */
export const MAX_ENTRIES = 20_000;
/** How long (ms) a run waits for another run of the callback that is saving its baseline. */
const LOCK_WAIT_MS = 5000;
/** A saved baseline larger than this is not read (the next run makes a new one). */
const MAX_BYTES = 8 * 1024 * 1024;

function baselinePath(root: string, callback: string): string {
  return statePath(root, STATE.baseline, `${callback}.bin`);
}

/** A baseline as read, and which saved version it was (null when unsure). */
export interface ReadBaseline {
  readonly files: Baseline;
  readonly version: string | null;
}

/** The callback's baseline as saved (null when there is none), and its version. */
export interface SavedBaseline {
  readonly bytes: Uint8Array | null;
  readonly version: string | null;
}

/**
 * Which saved version of the file is there now: each save replaces the file (a new inode),
 * so an equal answer later means nobody saved in between.
 */
function savedVersion(root: string, callback: string): string {
  const st = lstatSync(baselinePath(root, callback), { throwIfNoEntry: false });
  return st === undefined ? "none" : `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
}

/** The callback's baseline as saved, and its version. */
export function readSavedBaseline(root: string, callback: string): SavedBaseline {
  const version = savedVersion(root, callback);
  const bytes = version === "none" ? null : readStateBytes(baselinePath(root, callback), MAX_BYTES);
  return { bytes, version: savedVersion(root, callback) === version ? version : null };
}

/** Does the saved baseline say, without decoding all of it, that each of `keys` is recorded clean? */
export function knownCleanInSaved(saved: SavedBaseline, keys: readonly string[]): boolean {
  return saved.bytes !== null && knownCleanInBytes(saved.bytes, keys);
}

/** The records of a saved baseline; none when there is none or it cannot be read. */
export function decodeSaved(saved: SavedBaseline): Baseline {
  return saved.bytes === null ? NO_BASELINE : (decodeBaseline(saved.bytes) ?? NO_BASELINE);
}

/** The callback's baseline, empty when there is none or it cannot be read. */
export function readBaseline(root: string, callback: string): Baseline {
  return decodeSaved(readSavedBaseline(root, callback));
}

/**
 * Save what this run found for the files it saw (`seen`, in the order seen) into the
 * callback's baseline. Runs of one callback may finish together (`overlap: "parallel"`,
 * several agents): under the callback's lock, the baseline is read again (unless it is
 * still the version `known`, read before) and only this run's files are replaced, so one
 * run never drops what another saved meanwhile. Best effort: a folder that is not
 * cpilot's own, a full disk, a read-only tree or a lock held too long leaves the old one,
 * and is told once beside the reply (see state-trouble.ts).
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
    // The lock's folder is checked by its real path: a project reached through a symlink
    // (macOS's /tmp) is still the same folder.
    dir = openVerifiedDir(realpathSync(stateDir(root, STATE.baseline)), "");
    unlock = lockDirSync(dir, `${callback}.lock`, LOCK_WAIT_MS);
    const version = savedVersion(root, callback);
    const now =
      known?.version != null && version === known.version
        ? known.files
        : readBaseline(root, callback);
    // This run's files are recorded last: the most recently seen files are kept.
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
