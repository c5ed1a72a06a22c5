import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { ownStartTime } from "../platform/process-start.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { holdsAFile } from "./byte-name-fs.ts";
import { clearDeadClaims } from "./dead-claims.ts";

/**
 * What `check --staged` set aside, synced before the first file moves so that whoever finds
 * it after a crash knows what to put back. It lives in `<git dir>/cpilot/stage/` with the
 * files: `tracked/<path>` and `untracked/<path>`.
 */
export interface Journal {
  readonly version: 1;
  /** With its start time: a reused pid is not it. */
  readonly pid: number;
  readonly started: number | null;
  readonly top: string;
  /** Its `.cpilot/running/` lists the check's runs: one that outlived its killed check is stopped before the files go back. */
  readonly root?: string;
  readonly createdAt: string;
  readonly tracked: readonly { readonly path: string; readonly deleted: boolean }[];
  readonly untracked: readonly string[];
  /** By file system identity, not path: a copy of the repository has a copy of the journal. */
  readonly gitDirId?: FolderId;
  /** Folders made to check out deleted files: removed again (when empty) on the way back. */
  readonly madeDirs?: readonly string[];
}

export interface FolderId {
  readonly dev: number;
  readonly ino: number;
}

export function folderId(path: string): FolderId | null {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat?.isDirectory() ? { dev: stat.dev, ino: stat.ino } : null;
}

export function gitDirOfStage(dir: string): string {
  return dirname(dirname(dir));
}

export function stageDir(gitDir: string): string {
  return join(gitDir, "cpilot", "stage");
}

export function journalPath(dir: string): string {
  return join(dir, "journal.json");
}

/**
 * The empty folder a check that set nothing aside left for the next claim, holding at most its
 * old journal, which nobody reads: only `stage` itself is ever looked at. Renaming a folder
 * in and out costs little; making and removing one on every commit did (a disk mounted with
 * `discard` frees a removed folder's block at once).
 */
function spareOf(dir: string): string {
  return `${dir}.spare`;
}

/** Write the journal and claim the stage folder in one rename, which fails while another check holds it. */
export function claimStage(
  dir: string,
  journal: Omit<Journal, "pid" | "started">,
  options: { durable?: boolean } = {},
): boolean {
  const temp = `${dir}.new-${process.pid}`;
  clearDeadClaims(dir);
  takeSpare(dir, temp);
  const full = withIds(dir, journal);
  writeJournalIn(temp, JSON.stringify(full, null, 1), options.durable !== false);
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

export function rewriteJournal(dir: string, journal: Omit<Journal, "pid" | "started">): Journal {
  const full = withIds(dir, journal);
  writeFileAtomic(journalPath(dir), JSON.stringify(full, null, 1));
  return full;
}

/**
 * `temp` as an empty folder (but for an old journal): the spare one when it is a real folder
 * holding nothing else (a link planted in its place would send the journal and the set-aside
 * work where it points), else a new one.
 */
function takeSpare(dir: string, temp: string): void {
  rmSync(temp, { recursive: true, force: true });
  try {
    renameSync(spareOf(dir), temp);
    if (lstatSync(temp).isDirectory()) {
      const inside = readdirSync(temp, { withFileTypes: true });
      if (inside.every((e) => e.name === "journal.json" && e.isFile())) return;
    }
    // removes a link itself, never what it points to
    rmSync(temp, { recursive: true, force: true });
  } catch {
    // no spare folder (the first check here, or another check took it)
  }
  mkdirSync(temp, { recursive: true });
}

/**
 * Written in place: the folder is this process's own until the rename that claims the stage,
 * so no reader can see it half written. Never through a link planted in a spare folder. An
 * old journal is written over, padded with spaces (JSON allows them) to its length, not
 * truncated: freeing its disk block cost more than the rest of the claim.
 */
function writeJournalIn(folder: string, text: string, durable: boolean): void {
  const fd = openSync(
    journalPath(folder),
    constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW,
    0o644,
  );
  try {
    writeFileSync(fd, text.padEnd(fstatSync(fd).size, " "));
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function withIds(dir: string, journal: Omit<Journal, "pid" | "started">): Journal {
  const id = folderId(gitDirOfStage(dir));
  return {
    ...journal,
    pid: process.pid,
    started: ownStartTime(),
    ...(id === null ? {} : { gitDirId: id }),
  };
}

export function readJournal(dir: string): Journal | null {
  try {
    const j = JSON.parse(readFileSync(journalPath(dir), "utf8")) as Journal;
    return j.version === 1 && Array.isArray(j.tracked) && Array.isArray(j.untracked) ? j : null;
  } catch {
    return null;
  }
}

/**
 * Let go of a stage folder that never held set-aside work, only this check's journal: renamed
 * away whole, in one step, as the next claim's spare. A check claiming the stage meanwhile
 * finds it held until then, and gone after, never emptied under it.
 */
export function releaseUnusedStage(dir: string): void {
  try {
    renameSync(dir, spareOf(dir));
  } catch {
    // a spare is there already
    releaseStage(dir);
  }
}

/** The journal goes first, so a crash half way leaves a folder that {@link settleOrphanFolder} keeps if anything is in it. */
export function releaseStage(dir: string): void {
  rmSync(journalPath(dir), { force: true });
  rmSync(dir, { recursive: true, force: true });
}

/** A stage folder with no journal: files still in it are kept where a person can find them (returned), else null. */
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
