import { lstatSync, mkdirSync, realpathSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import {
  pruneIn,
  SESSION_MAX_AGE_MS,
  safeSessionName,
  sessionDir,
} from "../agent-session/session-state.ts";
import { findConfig } from "../config/find.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import { sha1Hex } from "../platform/digest.ts";
import { RECORDS, runtimeDir } from "../platform/runtime-dir.ts";
import { noteStateTrouble } from "../util/bookkeeping.ts";
import { lockDirSync } from "../util/dir-lock.ts";
import { openVerifiedDir } from "../util/verified-dir.ts";
import { validPlace } from "./git-place.ts";
import { validTurnRules } from "./ignore-rules.ts";
import { readSealed, writeSealed } from "./sealed-record.ts";
import type { TreeSnapshot } from "./tree-snapshot.ts";

/**
 * The turn's record as kept on disk: the project's files at the turn start, then the edit
 * tools' writes, sealed, one folder per work tree and session (recordDir below).
 */

export const SNAPSHOT = "tree-snapshot.json";

export interface TurnRecord {
  readonly snap: TreeSnapshot;
  readonly mark?: string | undefined;
}

export type Loaded = { readonly kind: "none" | "forged" } | ({ readonly kind: "ok" } & TurnRecord);

/** null where no record can be kept safely: then none is trusted. */
export function recordsAt(config: ResolvedConfig, session: string): string | null {
  try {
    return recordDir(config.root, session);
  } catch (err) {
    noteStateTrouble(config.root, err);
    return null;
  }
}

export function otherRecords(root: string, session: string): string | null {
  try {
    return recordDir(root, session);
  } catch {
    return null; // that config's own calls say why
  }
}

export function saveRecord(
  config: ResolvedConfig,
  session: string,
  dir: string,
  rec: TurnRecord,
): void {
  const value = { root: projectKey(config.root), session, ...rec.snap, mark: rec.mark };
  writeSealed(join(dir, SNAPSHOT), value);
}

/** Line one is the snapshot, then edit-tool writes; a record for another place, or sealed by other hands, is forged. */
export function loadRecord(config: ResolvedConfig, session: string, dir: string): Loaded {
  const read = readSealed<Record<string, unknown>>(join(dir, SNAPSHOT));
  if (read.kind !== "ok") return read;
  const snap = read.value;
  if (typeof snap !== "object" || snap === null) return { kind: "forged" };
  if (snap.root !== projectKey(config.root) || snap.session !== session) return { kind: "forged" };
  const { files, head, mark } = snap;
  if (typeof files !== "object" || files === null || Array.isArray(files))
    return { kind: "forged" };
  if (!Object.values(files).every((v) => typeof v === "string")) return { kind: "forged" };
  if (head !== undefined && head !== null && typeof head !== "string") return { kind: "forged" };
  // No prototype: a file named `__proto__` is a key like any other.
  const folded: Record<string, string> = Object.assign(Object.create(null), files);
  for (const line of read.lines) {
    const note = line as { p?: unknown; s?: unknown } | null;
    if (typeof note?.p === "string" && typeof note.s === "string") folded[note.p] = note.s;
  }
  const turn = validTurnRules(snap.turn);
  const place = validPlace(snap.place);
  const at = snap.at;
  return {
    kind: "ok",
    snap: {
      files: folded,
      ...(head === undefined ? {} : { head: head as string | null }),
      ...(turn ? { turn } : {}),
      ...(place ? { place } : {}),
      ...(typeof at === "number" ? { at } : {}),
    },
    ...(typeof mark === "string" ? { mark } : {}),
  };
}

export function save(dir: string, name: string, value: unknown): void {
  writeSealed(join(dir, name), value);
}

/** `forged` when sealed by other hands. */
export function load<T>(dir: string, name: string): T | null | "forged" {
  const read = readSealed<T>(join(dir, name));
  return read.kind === "ok" ? read.value : read.kind === "none" ? null : "forged";
}

/** Hook calls may run at once: without the lock one's update is lost. */
export function locked<T>(dir: string, update: () => T): T {
  const handle = openVerifiedDir(realpathSync(dir), "");
  let unlock: (() => void) | undefined;
  try {
    unlock = lockDirSync(handle, "record.lock", 10_000);
    return update();
  } finally {
    unlock?.();
    handle.close();
  }
}

/**
 * Where a session's turn record and repository pin live: the person's private folder
 * (mode 700, theirs), keyed by the work tree's real path and the session. Not the git
 * folder: a shell that swaps `.git` would move the records with it, and one that writes
 * there would rewrite what decides whose a change is.
 */

/**
 * null where the private folder is not usable (not the person's, open to others): then no
 * record is trusted. Where the system has no user ids (Windows), the session's git folder.
 */
export function recordDir(root: string, session: string): string | null {
  if (process.getuid === undefined) return sessionDir(root, session);
  const base = runtimeDir(process.env);
  if (base === null) return null;
  let path = base;
  for (const part of [RECORDS, projectKey(root), safeSessionName(session)]) {
    path = join(path, part);
    try {
      mkdirSync(path, { mode: 0o700 });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const st = lstatSync(path);
    if (st.isSymbolicLink() || !st.isDirectory())
      throw new Error(
        `Cannot keep cpilot's turn record in "${path}": it is not a folder of its own`,
      );
  }
  return path;
}

/** The work tree's real path: two spellings of one folder share one record. */
export function projectKey(root: string): string {
  let real = root;
  try {
    real = realpathSync(root);
  } catch {
    // a root that cannot be resolved keeps its spelling
  }
  return sha1Hex(real).slice(0, 16);
}

/** This project's records of sessions untouched for a week, as for its other session state. */
export function pruneRecords(root: string, now = Date.now()): number {
  if (process.getuid === undefined) return 0;
  const base = runtimeDir(process.env);
  return base === null
    ? 0
    : pruneIn(join(base, RECORDS, projectKey(root)), SESSION_MAX_AGE_MS, now);
}

/** The roots of the configs above `root`, up to the repository's top `top`, nearest first: each keeps its own turn record. */
export function enclosingConfigRoots(root: string, top: string): string[] {
  const out: string[] = [];
  for (let dir = root; dir !== top && dirname(dir) !== dir; ) {
    const found = findConfig(dirname(dir));
    if (found === null) break;
    dir = dirname(found);
    if (relative(top, dir).startsWith("..")) break;
    out.push(dir);
  }
  return out;
}
