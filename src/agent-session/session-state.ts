import { lstatSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Per } from "../config/types.ts";
import type { RunResult } from "../model/outcome.ts";
import { sha1Hex } from "../platform/digest.ts";
import { linkFileAtomic, writeFileAtomic } from "../util/atomic-write.ts";
import { findRepository } from "../util/git-dir.ts";
import { gitStatePath, madeGitStateDir, ownGitStatePath } from "../util/git-state-dir.ts";
import { isOwnStateDir, stateDir } from "../util/state-dir.ts";
import { readStateFile } from "../util/state-file.ts";
import { runRecordPath, STATE, statePath } from "../util/state-layout.ts";
import {
  asLedger,
  isFailingStatus,
  type LedgerEntry,
  ledgerSummary,
  mergeIntoLedger,
} from "./batch-ledger.ts";
import { isSessionFolderName, sessionFolderName } from "./folder-name.ts";

/**
 * What cpilot remembers about one agent session, under `<git dir>/cpilot/sessions/<session>/`
 * (`.cpilot/sessions/<session>/` outside git): which one-time messages were shown, how often a
 * stop was blocked, the last result of each callback the session triggered (kept at the
 * repository's top, with the config that judged it), and the record of its turn
 * (./hook/shell-edits.ts). These decide whether the agent's stop is held, so they
 * live where its shell and edit tools cannot write (see ../util/git-state-dir.ts). Plain
 * files, one per fact, so concurrent hook processes never overwrite each other's facts.
 */

/**
 * The last result of a callback (per-file callbacks: for one file) in a session, with the
 * config that judged it: in a monorepo one session's edits reach several configs, and
 * each result is re-checked by its own.
 */
export interface SessionResult {
  /** Absolute path of the config file that judged it; "" when not said (its folder's config). */
  readonly config: string;
  readonly callback: string;
  readonly per: Per;
  readonly files: readonly string[];
  readonly blocking: boolean;
  readonly status: RunResult["status"];
  readonly runId: string;
  readonly startedAt: number;
}

/** A session id made safe as one folder name. */
export function safeSessionName(session: string): string {
  return sessionFolderName(session, "_any");
}

/** The session's folder (created). */
export function sessionDir(root: string, session: string): string {
  const name = safeSessionName(session);
  return madeGitStateDir(root, STATE.sessions, name) ?? stateDir(root, STATE.sessions, name);
}

/** True when the session's records live in the git folder (not `.cpilot/`). */
function inGitFolder(root: string): boolean {
  return gitStatePath(root) !== null;
}

/** True the first time it is called for `name` in a session, across processes. */
export function claimOnce(root: string, session: string, name: string): boolean {
  try {
    writeFileSync(join(sessionDir(root, session), `once-${name}`), `${Date.now()}\n`, {
      flag: "wx",
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * The session's folder, not made: for reading (state that cannot be read is none, and a
 * folder on the way that is a symlink is not read through).
 */
function sessionPath(root: string, session: string): string {
  const name = safeSessionName(session);
  const inGit = gitStatePath(root, STATE.sessions, name);
  if (inGit === null) return statePath(root, STATE.sessions, name);
  // A path no file can have (a NUL in it): a link in the way leads nowhere.
  return ownGitStatePath(root, STATE.sessions, name) ? inGit : "\0not-read";
}

/** True when `claimOnce(name)` already happened. */
export function wasClaimed(root: string, session: string, name: string): boolean {
  try {
    return !!lstatSync(join(sessionPath(root, session), `once-${name}`), { throwIfNoEntry: false });
  } catch {
    return false; // .cpilot is not a folder: nothing was ever claimed there
  }
}

/** Read a small counter (0 when absent). */
export function readCounter(root: string, session: string, name: string): number {
  const n = Number(readStateFile(join(sessionPath(root, session), `count-${name}`), 64) ?? 0);
  return Number.isFinite(n) ? n : 0;
}

/** Add one to a counter and return the new value (for events an agent sends one at a time). */
export function bumpCounter(root: string, session: string, name: string): number {
  const next = readCounter(root, session, name) + 1;
  replaceFile(join(sessionDir(root, session), `count-${name}`), String(next));
  return next;
}

/** A result's file name: two configs' callbacks of one name never share one. */
function resultKey(config: string, callback: string, per: Per, files: readonly string[]): string {
  if (per === "batch" && config === "") return callback;
  const hash = sha1Hex([config, ...(per === "batch" ? [] : files)].join("\0")).slice(0, 16);
  return `${callback}@${hash}`;
}

/**
 * Where results are kept from: in git, the repository's top, so every config of the
 * repository a session's edits reach keeps its results where the stop gate of any of them
 * finds them; outside git, the config's own folder (`.cpilot/`).
 */
function resultsHome(root: string): string {
  return findRepository(root, {})?.top ?? root;
}

function resultsDir(root: string, session: string): string {
  const name = safeSessionName(session);
  return (
    madeGitStateDir(resultsHome(root), STATE.sessions, name, STATE.sessionResults) ??
    stateDir(root, STATE.sessions, name, STATE.sessionResults)
  );
}

/** The results folder, not made: for reading (see {@link sessionPath}). */
function resultsPath(root: string, session: string): string {
  return join(sessionPath(resultsHome(root), session), STATE.sessionResults);
}

/**
 * Remember a finished run as its callback's latest result in the session (per file for
 * per-file callbacks), under the config that judged it (`config`: its file's absolute
 * path). An older run never overwrites a newer one. Replaced and skipped runs are not results.
 */
export function recordResult(
  root: string,
  session: string,
  run: RunResult & { readonly startedAt?: number; readonly per?: Per },
  per: Per,
  config: string,
): void {
  if (run.status === "replaced" || run.status === "skipped" || run.status === "started") return;
  const key = resultKey(config, run.callback, per, run.files);
  const path = join(resultsDir(root, session), `${key}.json`);
  const startedAt = run.startedAt ?? Date.now() - run.durationMs;
  if (per === "batch") {
    recordBatchResult(root, path, run, startedAt, config);
    return;
  }
  const previous = asSessionResult(readJson<unknown>(path));
  if (previous !== null && previous.startedAt > startedAt) return;
  // The run's own record holds every field of a result: another name for it costs no new
  // file (see linkFileAtomic). A run that is not recorded so gets a file of its own. Not in
  // the git folder: the run's record is in `.cpilot/`, and a write through that name would
  // change this one. A run's record does not name its config: it is the folder's own,
  // and only a result outside git (kept in its config's folder) is linked.
  if (run.per === per && run.startedAt !== undefined && !inGitFolder(root)) {
    if (linkFileAtomic(runRecordPath(root, run.id), path)) return;
  }
  const entry: SessionResult = {
    config,
    callback: run.callback,
    per,
    files: run.files,
    blocking: run.blocking,
    status: run.status,
    runId: run.id,
    startedAt,
  };
  replaceFile(path, JSON.stringify(entry));
}

/**
 * A per-batch callback's result, merged file by file (see batch-ledger.ts): a pass clears
 * only the files it covered, and results recorded out of order do not undo each other.
 * Optimistic, not locked (a lock costs two file operations on every hook call): when the
 * file changed while this merge was made, it is made again from the new one.
 */
function recordBatchResult(
  root: string,
  path: string,
  run: RunResult & { readonly startedAt?: number; readonly per?: Per },
  startedAt: number,
  config: string,
): void {
  for (let attempt = 0; attempt < 5; attempt++) {
    const seen = fileStamp(path);
    const raw = readJson<Record<string, unknown>>(path);
    const previous = asSessionResult(raw);
    const ledger =
      asLedger(raw?.ledger) ??
      (previous === null
        ? {}
        : Object.fromEntries(
            previous.files.map((f): [string, LedgerEntry] => [
              f,
              [
                previous.startedAt,
                isFailingStatus(previous.status) ? 1 : 0,
                previous.runId,
                previous.status,
              ],
            ]),
          ));
    const merged = mergeIntoLedger(ledger, run, startedAt);
    const summary = ledgerSummary(merged);
    const text = JSON.stringify({
      config,
      callback: run.callback,
      per: "batch",
      files: summary.files,
      blocking: run.blocking,
      status: summary.status,
      runId: summary.runId,
      startedAt: summary.startedAt,
      ledger: merged,
    });
    if (fileStamp(path) !== seen) continue; // another hook merged meanwhile: again
    // Nothing but this run to remember (the usual case): its own record, under another
    // name, says it all and costs no new file (see linkFileAtomic).
    const onlyThisRun = Object.values(merged).every((e) => e[2] === run.id);
    if (onlyThisRun && run.per === "batch" && run.startedAt !== undefined && !inGitFolder(root)) {
      if (linkFileAtomic(runRecordPath(root, run.id), path)) return;
    }
    replaceFile(path, text);
    return;
  }
}

/** Which version of a file this is (inode, size, change time), or "" when there is none. */
function fileStamp(path: string): string {
  const st = lstatSync(path, { throwIfNoEntry: false, bigint: true });
  return st === undefined ? "" : `${st.ino}:${st.size}:${st.ctimeNs}`;
}

/**
 * The latest result of every callback the session triggered, of every config of the
 * repository (outside git: of the config at `root`).
 */
export function sessionResults(root: string, session: string): SessionResult[] {
  let names: string[];
  const dir = resultsPath(root, session);
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json") && !n.startsWith("."));
  } catch {
    return [];
  }
  const out: SessionResult[] = [];
  for (const name of names.sort()) {
    const entry = asSessionResult(readJson<unknown>(join(dir, name)));
    if (entry !== null) out.push(entry); // anything else is not cpilot's: skipped
  }
  return out;
}

/** Sessions untouched this long are forgotten (called when a new session starts). */
export const SESSION_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

/**
 * Remove the folders of sessions not touched for `maxAgeMs`, in the git folder (the
 * project's and the repository top's, which keeps its results) and in `.cpilot/` (where
 * sessions were kept before, and still are outside git); returns how many went.
 */
export function pruneSessions(
  root: string,
  maxAgeMs = SESSION_MAX_AGE_MS,
  now = Date.now(),
): number {
  let removed = 0;
  // the repository's top keeps the results of a project below it (see resultsHome)
  for (const at of new Set([root, resultsHome(root)])) {
    const inGit = gitStatePath(at, STATE.sessions);
    if (inGit !== null && ownGitStatePath(at, STATE.sessions))
      removed += pruneIn(inGit, maxAgeMs, now);
  }
  if (isOwnStateDir(root, STATE.sessions))
    removed += pruneIn(statePath(root, STATE.sessions), maxAgeMs, now);
  return removed;
}

function pruneIn(dir: string, maxAgeMs: number, now: number): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!isSessionFolderName(name)) continue; // not a folder cpilot made
    const path = join(dir, name);
    try {
      if (now - lstatSync(path).mtimeMs < maxAgeMs) continue;
      rmSync(path, { recursive: true, force: true });
      removed++;
    } catch {
      // another process pruned it
    }
  }
  return removed;
}

/**
 * Replace a file in one step (temp file + rename) without fsync: readers never see half a
 * file; a crash may lose the latest fact, which only costs a repeated reminder. The hook
 * path runs on every edit, and an fsync costs more than the rest of this module.
 */
function replaceFile(path: string, data: string): void {
  writeFileAtomic(path, data, { durable: false });
}

function readJson<T>(path: string): T | null {
  try {
    return JSON.parse(readStateFile(path) ?? "null") as T;
  } catch {
    return null;
  }
}

/**
 * A stored result, or null when the file is not one cpilot wrote: an entry of its own
 * (`runId`), or a run's record linked here (`id`).
 */
function asSessionResult(v: unknown): SessionResult | null {
  if (typeof v !== "object" || v === null) return null;
  const r = v as Record<string, unknown>;
  const runId = typeof r.runId === "string" ? r.runId : r.id;
  if (
    typeof r.callback === "string" &&
    (r.per === "file" || r.per === "batch") &&
    Array.isArray(r.files) &&
    r.files.every((f) => typeof f === "string") &&
    typeof r.blocking === "boolean" &&
    typeof r.status === "string" &&
    typeof runId === "string" &&
    typeof r.startedAt === "number"
  ) {
    return {
      config: typeof r.config === "string" ? r.config : "",
      callback: r.callback,
      per: r.per,
      files: r.files as string[],
      blocking: r.blocking,
      status: r.status as SessionResult["status"],
      runId,
      startedAt: r.startedAt,
    };
  }
  return null;
}
