import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { sha1Hex } from "../platform/digest.ts";
import { runSync, utf8 } from "../platform/run-sync.ts";
import type { Resync } from "./outcome.ts";

/** Files larger than this are hashed but not diffed: the agent gets "re-read it" instead. */
export const MAX_DIFF_BYTES = 1024 * 1024;

interface Entry {
  readonly hash: string | null;
  readonly text: string | null;
}

/**
 * Batches up to this many files are snapshotted by content, for exact diffs. Larger ones
 * (`check --all` on a big repo) only note the start time: reading every file first would
 * cost more than the runs.
 */
export const CONTENT_SNAPSHOT_LIMIT = 1000;

/** A time-only snapshot's entry: one shared object for all 20,000 files, not one each. */
const UNREAD: Entry = Object.freeze({ hash: "", text: null });

/** File system clocks tick coarsely (a jiffy): a write just after the start may look older. */
const CLOCK_SLACK_MS = 20;

/** The state of some files before callbacks run. */
export type Snapshot = Map<string, Entry> & { since?: number; fingerprints?: boolean };

function readEntry(root: string, path: string): Entry {
  try {
    const abs = join(root, path);
    if (!statSync(abs).isFile()) return { hash: null, text: null };
    const data = readFileSync(abs);
    const hash = sha1Hex(data);
    return { hash, text: data.length <= MAX_DIFF_BYTES ? data.toString("utf8") : null };
  } catch {
    return { hash: null, text: null };
  }
}

/**
 * Read and hash files (relative to root) before the runs. Past the limit, inside git only
 * the time is noted (git finds the changed files afterwards); outside git each file's stat
 * is its fingerprint.
 */
export function snapshot(root: string, paths: ReadonlySet<string>): Snapshot {
  const snap: Snapshot = new Map();
  if (paths.size > CONTENT_SNAPSHOT_LIMIT) {
    if (insideGit(root)) {
      snap.since = Date.now() - CLOCK_SLACK_MS;
      for (const path of paths) snap.set(path, UNREAD);
    } else {
      for (const path of paths) snap.set(path, { hash: fingerprint(root, path), text: null });
      snap.fingerprints = true;
    }
    return snap;
  }
  for (const path of paths) snap.set(path, readEntry(root, path));
  return snap;
}

/** A `.git` (folder, or file for worktrees) here or above: no git process needed. */
function insideGit(root: string): boolean {
  for (let dir = resolve(root); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return true;
    if (dirname(dir) === dir) return false;
  }
}

function fingerprint(root: string, path: string): string | null {
  try {
    const st = statSync(join(root, path));
    return `${st.size}:${st.mtimeMs}:${st.ctimeMs}:${st.ino}`;
  } catch {
    return null;
  }
}

const REREAD = "(changed by a callback during a large batch: re-read it)";

/** Tracked files that differ from the index, or null outside git: one call, no stat per file. */
function gitModified(root: string): Set<string> | null {
  const r = runSync("git", ["diff", "--name-only", "-z", "--relative", "--no-renames"], {
    cwd: root,
  });
  if (r.status !== 0) return null;
  return new Set(utf8(r.stdout).split("\0").filter(Boolean));
}

/**
 * For a time-only snapshot: the files modified since it was taken. Inside git only files git
 * sees as modified are looked at (stat-ing 20,000 files costs more than the runs); a large
 * batch's untracked files are then not compared.
 */
function changedSince(root: string, before: Snapshot, since: number): Resync[] {
  const resyncs: Resync[] = [];
  const modified = gitModified(root);
  const candidates =
    modified === null ? [...before.keys()] : [...before.keys()].filter((p) => modified.has(p));
  for (const path of candidates.sort()) {
    let mtime: number;
    try {
      const st = statSync(join(root, path));
      mtime = Math.max(st.mtimeMs, st.ctimeMs);
    } catch {
      continue; // gone before or after: a time-only snapshot cannot tell which
    }
    if (mtime < since) continue;
    const now = readEntry(root, path);
    const diff = `--- a/${path}\n+++ b/${path}\n${REREAD}\n`;
    resyncs.push({ path, diff, oldText: null, newText: now.text });
  }
  return resyncs;
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
  if (before.since !== undefined) return changedSince(root, before, before.since);
  if (before.fingerprints) return changedFingerprints(root, before);
  const changed: { path: string; old: Entry; now: Entry }[] = [];
  const paths = new Set([...before.keys(), ...extra]);
  for (const path of [...paths].sort()) {
    const old = before.get(path) ?? { hash: null, text: null };
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

function changedFingerprints(root: string, before: Snapshot): Resync[] {
  const resyncs: Resync[] = [];
  for (const [path, old] of [...before.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (fingerprint(root, path) === old.hash) continue;
    const now = readEntry(root, path);
    resyncs.push({
      path,
      diff: `--- a/${path}\n+++ b/${path}\n${REREAD}\n`,
      oldText: null,
      newText: now.text,
    });
  }
  return resyncs;
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
