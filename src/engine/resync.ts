import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { createTwoFilesPatch } from "diff";
import type { Resync } from "./outcome.ts";

/** Files larger than this are hashed but not diffed: the agent gets "re-read it" instead. */
export const MAX_DIFF_BYTES = 1024 * 1024;

interface Entry {
  readonly hash: string | null;
  readonly text: string | null;
}

/** The state of some files before callbacks run. */
export type Snapshot = Map<string, Entry>;

function readEntry(root: string, path: string): Entry {
  try {
    const abs = join(root, path);
    if (!statSync(abs).isFile()) return { hash: null, text: null };
    const data = readFileSync(abs);
    const hash = createHash("sha1").update(data).digest("hex");
    return { hash, text: data.length <= MAX_DIFF_BYTES ? data.toString("utf8") : null };
  } catch {
    return { hash: null, text: null };
  }
}

/** Read and hash files (relative to root) before the runs. */
export function snapshot(root: string, paths: Iterable<string>): Snapshot {
  const snap: Snapshot = new Map();
  for (const path of paths) snap.set(path, readEntry(root, path));
  return snap;
}

/**
 * Compare files with their snapshot (and `extra` paths that were not in it, taken as
 * absent before) and describe every change as a unified diff.
 */
export function compareSnapshot(
  root: string,
  before: Snapshot,
  extra: Iterable<string> = [],
): Resync[] {
  const resyncs: Resync[] = [];
  const paths = new Set([...before.keys(), ...extra]);
  for (const path of [...paths].sort()) {
    const old = before.get(path) ?? { hash: null, text: null };
    const now = readEntry(root, path);
    if (old.hash === now.hash) continue;
    const oldText = old.hash === null ? null : old.text;
    const newText = now.hash === null ? null : now.text;
    resyncs.push({ path, diff: unifiedDiff(path, old, now), oldText, newText });
  }
  return resyncs;
}

function unifiedDiff(path: string, old: Entry, now: Entry): string {
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
