import { mkdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { ownStartTime } from "../platform/process-start.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { holdsAFile } from "./byte-name-fs.ts";

/**
 * What `check --staged` set aside, written (and synced) before the first file moves, so
 * that whoever finds it after a crash knows what to put back. It lives in
 * `<git dir>/cpilot/stage/` with the files themselves: `tracked/<path>` holds the working
 * copy of a tracked file, `untracked/<path>` an untracked file, each moved (renamed) there.
 */
export interface Journal {
  readonly version: 1;
  /** The cpilot process that set the files aside, and when it started (a reused pid is not it). */
  readonly pid: number;
  readonly started: number | null;
  /** The work tree's top: every path is relative to it. */
  readonly top: string;
  /**
   * The config root, whose `.cpilot/running/` lists the check's runs: a run that outlived
   * its killed check is stopped before the files go back (it would write over them).
   */
  readonly root?: string;
  readonly createdAt: string;
  /** Tracked files whose working copy differs from the index; `deleted`: it had none. */
  readonly tracked: readonly { readonly path: string; readonly deleted: boolean }[];
  readonly untracked: readonly string[];
  /**
   * The git folder the stage folder is in, by its file system identity (not its path): a
   * copy of the repository has a copy of the journal, and its own git folder is another.
   */
  readonly gitDirId?: FolderId;
  /**
   * Folders that did not exist and that checking out a deleted file's staged version
   * makes: removed again (when empty) on the way back, deepest first.
   */
  readonly madeDirs?: readonly string[];
}

/** A folder by what names it on its file system, whatever its path: device and inode. */
export interface FolderId {
  readonly dev: number;
  readonly ino: number;
}

/** The identity of the folder `path`, or null when it cannot be read. */
export function folderId(path: string): FolderId | null {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat?.isDirectory() ? { dev: stat.dev, ino: stat.ino } : null;
}

/** The git folder holding the stage folder `dir` (`<git dir>/cpilot/stage`). */
export function gitDirOfStage(dir: string): string {
  return dirname(dirname(dir));
}

/** Where an interrupted check's files wait: `<git dir>/cpilot/stage`. */
export function stageDir(gitDir: string): string {
  return join(gitDir, "cpilot", "stage");
}

export function journalPath(dir: string): string {
  return join(dir, "journal.json");
}

/**
 * Write the journal and claim the stage folder in one step: the folder is built under a
 * temporary name and renamed into place, which fails while another check holds it.
 * Returns false when it is held.
 */
export function claimStage(
  dir: string,
  journal: Omit<Journal, "pid" | "started">,
  options: { durable?: boolean } = {},
): boolean {
  const temp = `${dir}.new-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  const full = withIds(dir, journal);
  writeFileAtomic(journalPath(temp), JSON.stringify(full, null, 1), options);
  try {
    renameSync(temp, dir);
    return true;
  } catch (err) {
    rmSync(temp, { recursive: true, force: true });
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOTEMPTY" || code === "EEXIST") return false;
    throw err;
  }
}

/** Replace the journal of a stage folder this process holds (synced: files move next). */
export function rewriteJournal(dir: string, journal: Omit<Journal, "pid" | "started">): Journal {
  const full = withIds(dir, journal);
  writeFileAtomic(journalPath(dir), JSON.stringify(full, null, 1));
  return full;
}

/** The journal for the stage folder `dir` of this process: its pid and its git folder's id. */
function withIds(dir: string, journal: Omit<Journal, "pid" | "started">): Journal {
  const id = folderId(gitDirOfStage(dir));
  return {
    ...journal,
    pid: process.pid,
    started: ownStartTime(),
    ...(id === null ? {} : { gitDirId: id }),
  };
}

/** The journal in `dir`, or null when there is none or it cannot be read. */
export function readJournal(dir: string): Journal | null {
  try {
    const j = JSON.parse(readFileSync(journalPath(dir), "utf8")) as Journal;
    return j.version === 1 && Array.isArray(j.tracked) && Array.isArray(j.untracked) ? j : null;
  } catch {
    return null;
  }
}

/**
 * Drop the stage folder once everything is back. The journal goes first, so a crash half
 * way leaves a folder with no journal, which {@link settleOrphanFolder} keeps if anything
 * is left in it.
 */
export function releaseStage(dir: string): void {
  rmSync(journalPath(dir), { force: true });
  rmSync(dir, { recursive: true, force: true });
}

/**
 * A stage folder with no journal: its owner died before the journal was in place (nothing
 * moved) or after everything was back. If files are still in it, keep them where a person
 * can find them; return that folder, or null when there was nothing to keep.
 */
export function settleOrphanFolder(dir: string, keptRoot: string): string | null {
  // the put-back leaves emptied folders behind: only a file (or link) still there counts
  const left = ["tracked", "untracked"].some((d) => holdsAFile(join(dir, d)));
  if (!left) {
    rmSync(dir, { recursive: true, force: true });
    return null;
  }
  const to = join(keptRoot, `orphan-${Date.now()}`);
  mkdirSync(keptRoot, { recursive: true });
  renameSync(dir, to);
  return to;
}
