import { lstatSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EditBatch } from "../model/batch.ts";
import type { Resync } from "../model/outcome.ts";
import { randomHex, sha1Hex } from "../platform/digest.ts";
import { type DirectoryWatch, watchDirectories } from "../platform/inotify.ts";
import { hashRegularFile, readRegularWithInode } from "../util/read-regular.ts";
import { stateDir } from "../util/state-dir.ts";
import { STATE } from "../util/state-layout.ts";

/** Files larger than this are hashed but not diffed: the agent gets "re-read it" instead. */
export const MAX_DIFF_BYTES = 1024 * 1024;

interface Entry {
  readonly hash: string | null;
  readonly text: string | null;
  readonly ino?: number | null;
}

/** Larger batches note the start time instead of reading every file: that would cost more than the runs. */
export const CONTENT_SNAPSHOT_LIMIT = 1000;

export type Snapshot =
  | {
      readonly entries: ReadonlyMap<string, Entry>;
      readonly since?: undefined;
      /** The file system's "now" before the files were read: a file whose status has not changed since is not read again. */
      readonly readAt: number | null;
    }
  | {
      readonly paths: readonly string[];
      readonly since: number;
      readonly absent: ReadonlySet<string>;
      readonly watch: DirectoryWatch | null;
    };

function readEntry(root: string, path: string): Entry {
  const abs = join(root, path);
  const read = readRegularWithInode(abs, MAX_DIFF_BYTES);
  if (read !== null) {
    return { hash: sha1Hex(read.data), text: read.data.toString("utf8"), ino: read.ino };
  }
  return { hash: hashRegularFile(abs), text: null, ino: null };
}

/** Smaller batches are read again whole: taking the file system's time costs a file write. */
const READ_AGAIN_ALL_BELOW = 16;

/** Read and hash files before the runs; past the limit, note the time and watch their folders where cheaper. */
export async function snapshot(
  root: string,
  paths: readonly string[],
  absent: ReadonlySet<string> = new Set(),
  contentLimit = CONTENT_SNAPSHOT_LIMIT,
): Promise<Snapshot> {
  if (paths.length > contentLimit) {
    const watch = await watchFolders(root, paths);
    return { paths, since: fileSystemNow(root), absent, watch };
  }
  const readAt = paths.length >= READ_AGAIN_ALL_BELOW ? fileSystemNow(root, false) : null;
  const entries = new Map<string, Entry>();
  for (const path of paths) if (!entries.has(path)) entries.set(path, readEntry(root, path));
  return { entries, readAt };
}

/**
 * Is the file surely as `old` saw it? A regular file (a symlink's target could change), the
 * same inode, whose ctime (which no program can set) is before `readAt`.
 */
function unchangedSince(abs: string, old: Entry, readAt: number): boolean {
  if (old.ino === null || old.ino === undefined) return false;
  const st = lstatSync(abs, { throwIfNoEntry: false });
  return st?.isFile() === true && st.ino === old.ino && st.ctimeMs < readAt;
}

/** An inotify watch costs about one lstat and is paid per folder: 2 files a folder or more is cheaper to watch. */
const FILES_PER_WATCH = 2;

async function watchFolders(
  root: string,
  paths: readonly string[],
): Promise<DirectoryWatch | null> {
  const folders = new Map<string, string>();
  let last: string | null = null;
  for (const path of paths) {
    const slash = path.lastIndexOf("/");
    if (last !== null && slash === last.length && path.startsWith(last)) continue;
    last = slash === -1 ? "" : path.slice(0, slash);
    if (!folders.has(last)) folders.set(last, last === "" ? root : join(root, last));
  }
  if (paths.length < folders.size * FILES_PER_WATCH) return null;
  return watchDirectories(folders);
}

export function dropSnapshot(before: Snapshot): void {
  if (before.since !== undefined) before.watch?.close();
}

export function deletedIn(batch: EditBatch): Set<string> {
  const deleted = new Set<string>();
  for (const change of batch.files) if (change.kind === "deleted") deleted.add(change.path);
  return deleted;
}

/** File system clocks tick coarsely and may not be ours (NFS). */
const CLOCK_SLACK_MS = 20;

/** "Now" as the file system stamps it, so a later write compares on the same clock (as `find -newer` does). */
function fileSystemNow(root: string): number;
function fileSystemNow(root: string, fallback: false): number | null;
function fileSystemNow(root: string, fallback = true): number | null {
  let marker: string | null = null;
  try {
    marker = join(stateDir(root, STATE.tmp), `since-${process.pid}-${randomHex(4)}`);
    writeFileSync(marker, "");
    return statSync(marker).mtimeMs;
  } catch {
    return fallback ? Date.now() - CLOCK_SLACK_MS : null;
  } finally {
    if (marker !== null) rmSync(marker, { force: true });
  }
}

/** For a time-only snapshot: files written or deleted since, with one lstat each (only what a watch saw, when watched). */
function changedSince(root: string, before: Snapshot & { since: number }): Resync[] {
  const touched = before.watch?.touched() ?? null;
  before.watch?.close();
  const written = new Set<string>();
  const deleted = new Set<string>();
  for (const path of touched === null ? before.paths : touchedPaths(touched, before.paths)) {
    const st = lstatSync(join(root, path), { throwIfNoEntry: false });
    // mtime, not ctime: a chmod or a new hard link is not a rewrite of the content
    if (st === undefined) {
      if (!before.absent.has(path)) deleted.add(path);
    } else if (st.mtimeMs >= before.since) written.add(path);
  }
  const resyncs: Resync[] = [
    ...[...written].map((path) => ({
      path,
      diff: `--- a/${path}\n+++ b/${path}\n(changed by a callback during a large batch: re-read it)\n`,
      oldText: null,
      newText: readEntry(root, path).text,
    })),
    ...[...deleted].map((path) => ({
      path,
      diff: `--- a/${path}\n+++ /dev/null\n(deleted by a callback)\n`,
      oldText: null,
      newText: null,
    })),
  ];
  return resyncs.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function touchedPaths(
  touched: ReadonlyMap<string, ReadonlySet<string>>,
  planned: readonly string[],
): string[] {
  if (touched.size === 0) return [];
  const plannedSet = new Set(planned);
  const found: string[] = [];
  for (const [folder, names] of touched) {
    const prefix = folder === "" ? "" : `${folder}/`;
    for (const name of names) if (plannedSet.has(prefix + name)) found.push(prefix + name);
  }
  return found;
}

export async function compareSnapshot(
  root: string,
  before: Snapshot,
  extra: Iterable<string> = [],
): Promise<Resync[]> {
  if (before.since !== undefined) return changedSince(root, before);
  const changed: { path: string; old: Entry; now: Entry }[] = [];
  const paths = new Set([...before.entries.keys(), ...extra]);
  const { readAt } = before;
  for (const path of [...paths].sort()) {
    const old = before.entries.get(path) ?? { hash: null, text: null };
    if (readAt !== null && unchangedSince(join(root, path), old, readAt)) continue;
    const now = readEntry(root, path);
    if (old.hash !== now.hash) changed.push({ path, old, now });
  }
  if (changed.length === 0) return [];
  // Loaded only when something changed: most hook calls change nothing.
  const { createTwoFilesPatch } = await import("diff");
  return changed.map(({ path, old, now }) => ({
    path,
    diff: unifiedDiff(createTwoFilesPatch, path, old, now),
    oldText: old.hash === null ? null : old.text,
    newText: now.hash === null ? null : now.text,
  }));
}

function unifiedDiff(
  createTwoFilesPatch: typeof import("diff").createTwoFilesPatch,
  path: string,
  old: Entry,
  now: Entry,
): string {
  if ((old.hash !== null && old.text === null) || (now.hash !== null && now.text === null)) {
    return `--- a/${path}\n+++ b/${path}\n(file over ${MAX_DIFF_BYTES} bytes changed: re-read it)\n`;
  }
  const patch = createTwoFilesPatch(
    old.hash === null ? "/dev/null" : `a/${path}`,
    now.hash === null ? "/dev/null" : `b/${path}`,
    old.text ?? "",
    now.text ?? "",
    undefined,
    undefined,
    { context: 2 },
  );
  return patch.replace(/^(?:Index:[^\n]*\n)?=+\n/, "");
}
