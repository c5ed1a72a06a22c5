import { lstatSync, mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import {
  pruneIn,
  SESSION_MAX_AGE_MS,
  safeSessionName,
  sessionDir,
} from "../agent-session/session-state.ts";
import { sha1Hex } from "../platform/digest.ts";
import { RECORDS, runtimeDir } from "../platform/runtime-dir.ts";

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
