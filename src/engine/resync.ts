import { lstatSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomHex, sha1Hex } from "../platform/digest.ts";
import { hashRegularFile, readRegularFile } from "../util/read-regular.ts";
import type { EditBatch } from "./batch.ts";
import type { Resync } from "./outcome.ts";

/** Files larger than this are hashed but not diffed: the agent gets "re-read it" instead. */
export const MAX_DIFF_BYTES = 1024 * 1024;

interface Entry {
  readonly hash: string | null;
  readonly text: string | null;
}

/**
 * Batches up to this many files are snapshotted by content, for exact diffs. Larger ones
 * (`check --all` on a big repo) only note the start time on the file system's clock:
 * reading every file first would cost more than the runs.
 */
export const CONTENT_SNAPSHOT_LIMIT = 1000;

/** The state of some files before callbacks run: their content, or only the time. */
export type Snapshot =
  | { readonly entries: ReadonlyMap<string, Entry>; readonly since?: undefined }
  | {
      /** May repeat a path (several runs had it). */
      readonly paths: readonly string[];
      readonly since: number;
      /** Paths that did not exist before (the batch's deletions). */
      readonly absent: ReadonlySet<string>;
    };

/** A file's hash and, up to MAX_DIFF_BYTES, its text; a bigger one is hashed in slices. */
function readEntry(root: string, path: string): Entry {
  const abs = join(root, path);
  const data = readRegularFile(abs, MAX_DIFF_BYTES);
  if (data !== null) return { hash: sha1Hex(data), text: data.toString("utf8") };
  return { hash: hashRegularFile(abs), text: null };
}

/**
 * Read and hash files (relative to root, repeats allowed) before the runs; past the limit,
 * note the time and which paths were already gone (`absent`: the batch's deletions).
 */
export function snapshot(
  root: string,
  paths: readonly string[],
  absent: ReadonlySet<string> = new Set(),
): Snapshot {
  if (paths.length > CONTENT_SNAPSHOT_LIMIT) return { paths, since: fileSystemNow(root), absent };
  const entries = new Map<string, Entry>();
  for (const path of paths) if (!entries.has(path)) entries.set(path, readEntry(root, path));
  return { entries };
}

/** The batch's deleted paths: gone before any callback ran (a snapshot's `absent`). */
export function deletedIn(batch: EditBatch): Set<string> {
  const deleted = new Set<string>();
  for (const change of batch.files) if (change.kind === "deleted") deleted.add(change.path);
  return deleted;
}

/** File system clocks tick coarsely (a jiffy) and may not be ours (NFS): a fallback's slack. */
const CLOCK_SLACK_MS = 20;

/**
 * "Now" as the file system stamps it: the mtime of a file written now under `.cpilot/tmp`,
 * so a later write to the project compares on the same clock (as `find -newer` does).
 */
function fileSystemNow(root: string): number {
  const dir = join(root, ".cpilot", "tmp");
  const marker = join(dir, `since-${process.pid}-${randomHex(4)}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(marker, "");
    return statSync(marker).mtimeMs;
  } catch {
    return Date.now() - CLOCK_SLACK_MS; // read-only project: our clock, with slack
  } finally {
    rmSync(marker, { force: true });
  }
}

/**
 * For a time-only snapshot: the files written since it was taken, and those a callback
 * deleted, found with one lstat each (10,000 took ~35 ms here, `git diff` on the
 * 20,000-file tree ~55 ms).
 */
function changedSince(root: string, before: Snapshot & { since: number }): Resync[] {
  const written = new Set<string>();
  const deleted = new Set<string>();
  for (const path of before.paths) {
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

/**
 * Compare files with their snapshot (and `extra` paths that were not in it, taken as
 * absent before) and describe every change as a unified diff.
 */
export async function compareSnapshot(
  root: string,
  before: Snapshot,
  extra: Iterable<string> = [],
): Promise<Resync[]> {
  if (before.since !== undefined) return changedSince(root, before);
  const changed: { path: string; old: Entry; now: Entry }[] = [];
  const paths = new Set([...before.entries.keys(), ...extra]);
  for (const path of [...paths].sort()) {
    const old = before.entries.get(path) ?? { hash: null, text: null };
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
  // Drop the "Index:"/"====" preamble the library writes; keep ---/+++ and hunks.
  return patch.replace(/^(?:Index:[^\n]*\n)?=+\n/, "");
}
