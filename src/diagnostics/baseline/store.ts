import { lstatSync, realpathSync, rmSync } from "node:fs";
import { writeFileAtomic } from "../../util/atomic-write.ts";
import { noteStateTrouble } from "../../util/bookkeeping.ts";
import { LockTimeout, lockDirSync } from "../../util/dir-lock.ts";
import { stateDir } from "../../util/state-dir.ts";
import { readStateBytes, readStateFile } from "../../util/state-file.ts";
import { STATE, statePath } from "../../util/state-layout.ts";
import { openVerifiedDir } from "../../util/verified-dir.ts";
import {
  decodeBaseline,
  encodeWith,
  type FileEntries,
  knownCleanInBytes,
  NO_BASELINE,
  SavedFiles,
  STRIDE,
} from "./_binary.ts";

/**
 * One file's diagnostics as the last run that saw it left them, as numbers only, to stay
 * cheap to read, compare and write on the hook path (thousands of diagnostics in a file):
 * four per diagnostic in `e`: the fingerprint of its tool, severity, code and message (what
 * must be equal), its line, the lineHash of the source line it was on (-1 when unknown),
 * and 1 when an agent's edit brought it (it stays the agent's to fix), else 0. Saved as
 * bytes (./_binary.ts).
 */
export type { FileEntries } from "./_binary.ts";
/** Numbers per diagnostic in {@link FileEntries.e}. */
export { STRIDE } from "./_binary.ts";

/** Per file (root-relative), in the order last seen (the oldest first). */
export type Baseline = SavedFiles;

/** Files plus diagnostics kept per callback: past this, the files seen longest ago are dropped. */
export const MAX_ENTRIES = 20_000;
/** How long (ms) a run waits for another run of the callback that is saving its baseline. */
const LOCK_WAIT_MS = 5000;
/** A saved baseline larger than this is not read (the next run makes a new one). */
const MAX_BYTES = 8 * 1024 * 1024;
/**
 * The JSON format saved before ./_binary.ts (`<callback>.json`): read while a callback has
 * no baseline of the new format, so an upgrade keeps what it knew; its first save replaces it.
 */
const LEGACY_VERSION = 2;

function baselinePath(root: string, callback: string): string {
  return statePath(root, STATE.baseline, `${callback}.bin`);
}

function legacyPath(root: string, callback: string): string {
  return statePath(root, STATE.baseline, `${callback}.json`);
}

/** A baseline as read, and which saved version it was (null when unsure). */
export interface ReadBaseline {
  readonly files: Baseline;
  readonly version: string | null;
}

/** The callback's baseline as saved (both null when there is none), and its version. */
export interface SavedBaseline {
  readonly bytes: Uint8Array | null;
  /** The text of a legacy JSON baseline, read only when there is no baseline in bytes. */
  readonly legacy: string | null;
  readonly version: string | null;
}

/**
 * Which saved version of the file is there now: each save replaces the file (a new inode),
 * so an equal answer later means nobody saved in between.
 */
function fileVersion(path: string): string {
  const st = lstatSync(path, { throwIfNoEntry: false });
  return st === undefined ? "none" : `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
}

/** The version when neither a baseline nor a legacy one is saved. */
const NOTHING_SAVED = "none/none";

/** The saved version of the callback's baseline: its file's, or, while it has none, the legacy one's. */
function savedVersion(root: string, callback: string): string {
  const version = fileVersion(baselinePath(root, callback));
  return version === "none" ? `none/${fileVersion(legacyPath(root, callback))}` : version;
}

/** The callback's baseline as saved, and its version. */
export function readSavedBaseline(root: string, callback: string): SavedBaseline {
  const version = savedVersion(root, callback);
  const legacy = version.startsWith("none/") && version !== NOTHING_SAVED;
  const bytes = legacy ? null : readStateBytes(baselinePath(root, callback), MAX_BYTES);
  const text = legacy ? readStateFile(legacyPath(root, callback), MAX_BYTES) : null;
  return {
    bytes,
    legacy: text,
    version: savedVersion(root, callback) === version ? version : null,
  };
}

/** Does the saved baseline say, without decoding all of it, that each of `files` is known clean? */
export function knownCleanInSaved(saved: SavedBaseline, files: readonly string[]): boolean {
  if (saved.bytes !== null) return knownCleanInBytes(saved.bytes, files);
  return saved.legacy !== null && knownCleanInText(saved.legacy, files);
}

/** The files of a saved baseline; none when there is none or it cannot be read. */
export function decodeSaved(saved: SavedBaseline): Baseline {
  if (saved.bytes !== null) return decodeBaseline(saved.bytes) ?? NO_BASELINE;
  if (saved.legacy === null) return NO_BASELINE;
  // A legacy baseline, once: its files in the new shape.
  const table: Record<string, unknown> = Object.create(null);
  const numbers: number[] = [];
  for (const [file, stored] of Object.entries(parseBaseline(saved.legacy))) {
    const entries = fileEntries(stored);
    if (entries === null) continue;
    const count = entries.e.length / STRIDE;
    table[file] = count === 0 ? 0 : [numbers.length / STRIDE, count];
    for (const n of entries.e as readonly number[]) numbers.push(n);
  }
  return new SavedFiles(table, Float64Array.from(numbers), numbers.length / STRIDE);
}

/** The callback's baseline, empty when there is none or it cannot be read. */
export function readBaseline(root: string, callback: string): Baseline {
  return decodeSaved(readSavedBaseline(root, callback));
}

/**
 * Does a legacy baseline's saved text say, without parsing it, that each of `files` is
 * known clean (no diagnostics)? The text is JSON.stringify's: a file's key is its JSON
 * string right after the `{` or `,` that starts a member (inside a string every `"` is
 * escaped, so neither `{"` nor `,"` occurs there; the values hold numbers only), and
 * `{"e":[]}` is its value. A search costs ~0.1 ms in a 20,000-file baseline, where parsing
 * it costs several: for a run over a few files.
 */
export function knownCleanInText(text: string, files: readonly string[]): boolean {
  if (!text.startsWith(`{"version":${LEGACY_VERSION},"files":{`)) return false;
  for (const file of files) {
    const member = `${JSON.stringify(file)}:{"e":[]}`;
    if (!text.includes(`{${member}`) && !text.includes(`,${member}`)) return false;
  }
  return true;
}

/** A legacy baseline's files as stored, from its saved text; empty for null or anything unreadable. */
export function parseBaseline(text: string | null): Record<string, unknown> {
  if (text === null) return {};
  try {
    const value = JSON.parse(text) as { version?: number; files?: Record<string, unknown> };
    return value.version === LEGACY_VERSION && value.files && typeof value.files === "object"
      ? value.files
      : {};
  } catch {
    return {};
  }
}

/** A legacy file's entries when they have the right shape, else null (as if never seen). */
export function fileEntries(stored: unknown): FileEntries | null {
  if (typeof stored !== "object" || stored === null) return null;
  const { e } = stored as { e?: unknown };
  if (!Array.isArray(e) || e.length % STRIDE !== 0 || !e.every((n) => typeof n === "number"))
    return null;
  return { e };
}

/** How many diagnostics a legacy file holds (0 for a file known clean or unreadable). */
export function entryCount(stored: unknown): number {
  return (fileEntries(stored)?.e.length ?? 0) / STRIDE;
}

/**
 * Save what this run found for the files it saw (`seen`, in the order seen) into the
 * callback's baseline. Runs of one callback may finish together (`overlap: "parallel"`,
 * several agents): under the callback's lock, the baseline is read again (unless it is
 * still the version `known`, read before) and only this run's files are replaced, so one
 * run never drops what another saved meanwhile. Best effort: a folder that is not
 * cpilot's own, a full disk, a read-only tree or a lock held too long leaves the old one,
 * and is told once beside the reply (see util/bookkeeping.ts).
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
    // A legacy file, read while there was no other, is replaced now.
    if (version.startsWith("none/") && version !== NOTHING_SAVED)
      rmSync(legacyPath(root, callback), { force: true });
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
