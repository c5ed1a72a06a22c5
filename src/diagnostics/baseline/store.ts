import { lstatSync, realpathSync } from "node:fs";
import { writeFileAtomic } from "../../util/atomic-write.ts";
import { LockTimeout, lockDirSync } from "../../util/dir-lock.ts";
import { stateDir } from "../../util/state-dir.ts";
import { readStateFile } from "../../util/state-file.ts";
import { STATE, statePath } from "../../util/state-layout.ts";
import { noteStateTrouble } from "../../util/state-trouble.ts";
import { openVerifiedDir } from "../../util/verified-dir.ts";

/**
 * One file's diagnostics as the last run that saw it left them, as numbers only, to stay
 * cheap to read, compare and write on the hook path (thousands of diagnostics in a file):
 * four per diagnostic in `e`: the fingerprint of its tool, severity, code and message (what
 * must be equal), its line, the lineHash of the source line it was on (-1 when unknown),
 * and 1 when an agent's edit brought it (it stays the agent's to fix), else 0.
 */
export interface FileEntries {
  readonly e: readonly number[];
}

/** Numbers per diagnostic in {@link FileEntries.e}. */
export const STRIDE = 4;

/** Per file (root-relative), as stored; check each with {@link fileEntries} before use. */
export type Baseline = Record<string, unknown>;

/** Files plus diagnostics kept per callback: past this, the files seen longest ago are dropped. */
const MAX_ENTRIES = 20_000;
/** How long (ms) a run waits for another run of the callback that is saving its baseline. */
const LOCK_WAIT_MS = 5000;
/** Format of the file; another version reads as no baseline (the next run makes one). */
const VERSION = 2;

function baselinePath(root: string, callback: string): string {
  return statePath(root, STATE.baseline, `${callback}.json`);
}

/** A baseline as read, and which saved version it was (null when unsure). */
export interface ReadBaseline {
  readonly files: Baseline;
  readonly version: string | null;
}

/** The baseline file's text as saved (null when there is none), and its version. */
export interface SavedText {
  readonly text: string | null;
  readonly version: string | null;
}

/**
 * Which saved version of the file is there now: each save replaces the file (a new inode),
 * so an equal answer later means nobody saved in between.
 */
function savedVersion(path: string): string {
  const st = lstatSync(path, { throwIfNoEntry: false });
  return st === undefined ? "none" : `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
}

/** The callback's baseline file as saved, and its version. */
export function readBaselineText(root: string, callback: string): SavedText {
  const path = baselinePath(root, callback);
  const version = savedVersion(path);
  const text = readStateFile(path, 8 * 1024 * 1024);
  return { text, version: savedVersion(path) === version ? version : null };
}

/**
 * Does the saved text say, without parsing it, that each of `files` is known clean (no
 * diagnostics)? The text is JSON.stringify's: a file's key is its JSON string right after
 * the `{` or `,` that starts a member (inside a string every `"` is escaped, so neither
 * `{"` nor `,"` occurs there; the values hold numbers only), and `{"e":[]}` is its value.
 * A search costs ~0.1 ms in a 20,000-file baseline, where parsing it costs several: for a
 * run over a few files.
 */
export function knownCleanInText(text: string, files: readonly string[]): boolean {
  if (!text.startsWith(`{"version":${VERSION},"files":{`)) return false;
  for (const file of files) {
    const member = `${JSON.stringify(file)}:{"e":[]}`;
    if (!text.includes(`{${member}`) && !text.includes(`,${member}`)) return false;
  }
  return true;
}

/** The callback's baseline, empty when there is none or it cannot be read. */
export function readBaseline(root: string, callback: string): Baseline {
  return parseBaseline(readStateFile(baselinePath(root, callback), 8 * 1024 * 1024));
}

/** A baseline from its saved text; empty for null or anything unreadable. */
export function parseBaseline(text: string | null): Baseline {
  if (text === null) return {};
  try {
    const value = JSON.parse(text) as { version?: number; files?: Baseline };
    return value.version === VERSION && value.files && typeof value.files === "object"
      ? value.files
      : {};
  } catch {
    return {};
  }
}

/** A stored file's entries when they have the right shape, else null (as if never seen). */
export function fileEntries(stored: unknown): FileEntries | null {
  if (typeof stored !== "object" || stored === null) return null;
  const { e } = stored as Partial<FileEntries>;
  if (!Array.isArray(e) || e.length % STRIDE !== 0) return null;
  return { e };
}

/** How many diagnostics a stored file holds (0 for a file known clean or unreadable). */
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
    const now =
      known?.version != null && savedVersion(baselinePath(root, callback)) === known.version
        ? known.files
        : readBaseline(root, callback);
    const files: Record<string, unknown> = { ...now };
    for (const [file, entries] of seen) {
      delete files[file]; // re-added last: the most recently seen files are kept
      files[file] = entries;
    }
    writeFileAtomic(
      baselinePath(root, callback),
      JSON.stringify({ version: VERSION, files: bounded(files) }),
      { durable: false },
    );
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

/** The newest files (last inserted) whose entries fit MAX_ENTRIES, in their order. */
function bounded(files: Record<string, unknown>): Record<string, unknown> {
  const names = Object.keys(files);
  let total = 0;
  let first = names.length;
  while (first > 0) {
    // A clean file costs one: a tree of files known clean stays bounded too.
    const size = 1 + entryCount(files[names[first - 1] as string]);
    if (total + size > MAX_ENTRIES) break;
    total += size;
    first--;
  }
  const kept: Record<string, unknown> = {};
  for (const name of names.slice(first)) kept[name] = files[name];
  return kept;
}
