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
 * What cpilot remembers about an agent session, under `<git dir>/cpilot/sessions/<session>/`:
 * one-time messages shown, stops blocked, the last result of each callback, the turn record.
 * These decide whether the agent's stop is held, so they live where its shell and edit tools
 * cannot write. One file per fact, so concurrent hooks never overwrite each other's.
 */

/** With the config that judged it: in a monorepo a session's edits reach several configs. */
export interface SessionResult {
  readonly config: string;
  readonly callback: string;
  readonly per: Per;
  readonly files: readonly string[];
  readonly blocking: boolean;
  readonly status: RunResult["status"];
  readonly runId: string;
  readonly startedAt: number;
}

export function safeSessionName(session: string): string {
  return sessionFolderName(session, "_any");
}

export function sessionDir(root: string, session: string): string {
  const name = safeSessionName(session);
  return madeGitStateDir(root, STATE.sessions, name) ?? stateDir(root, STATE.sessions, name);
}

function inGitFolder(root: string): boolean {
  return gitStatePath(root) !== null;
}

/** True the first time for `name` in a session, across processes. */
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

/** Not made: for reading (no state is none; a symlink on the way is not read through). */
function sessionPath(root: string, session: string): string {
  const name = safeSessionName(session);
  const inGit = gitStatePath(root, STATE.sessions, name);
  if (inGit === null) return statePath(root, STATE.sessions, name);
  // A path no file can have (a NUL in it): a link in the way leads nowhere.
  return ownGitStatePath(root, STATE.sessions, name) ? inGit : "\0not-read";
}

export function wasClaimed(root: string, session: string, name: string): boolean {
  try {
    return !!lstatSync(join(sessionPath(root, session), `once-${name}`), { throwIfNoEntry: false });
  } catch {
    return false; // .cpilot is not a folder: nothing was ever claimed there
  }
}

export function readCounter(root: string, session: string, name: string): number {
  const n = Number(readStateFile(join(sessionPath(root, session), `count-${name}`), 64) ?? 0);
  return Number.isFinite(n) ? n : 0;
}

export function bumpCounter(root: string, session: string, name: string): number {
  const next = readCounter(root, session, name) + 1;
  replaceFile(join(sessionDir(root, session), `count-${name}`), String(next));
  return next;
}

/** Two configs' callbacks of one name never share one. */
function resultKey(config: string, callback: string, per: Per, files: readonly string[]): string {
  if (per === "batch" && config === "") return callback;
  const hash = sha1Hex([config, ...(per === "batch" ? [] : files)].join("\0")).slice(0, 16);
  return `${callback}@${hash}`;
}

/** In git, the repository's top, so the stop gate of any config a session reaches finds them. */
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

function resultsPath(root: string, session: string): string {
  return join(sessionPath(resultsHome(root), session), STATE.sessionResults);
}

/** A finished run as its callback's latest result (per file for per-file callbacks). An older run never overwrites a newer one. */
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
  // A link to the run's own record costs no new file. Not in the git folder: the record is
  // in `.cpilot/`, and a write through that name would change this one.
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
 * A per-batch callback's result, merged file by file. Optimistic, not locked (a lock costs two
 * file operations per hook call): when the file changed meanwhile, the merge is made again.
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
    // Nothing but this run to remember (the usual case): a link to its own record says it all.
    const onlyThisRun = Object.values(merged).every((e) => e[2] === run.id);
    if (onlyThisRun && run.per === "batch" && run.startedAt !== undefined && !inGitFolder(root)) {
      if (linkFileAtomic(runRecordPath(root, run.id), path)) return;
    }
    replaceFile(path, text);
    return;
  }
}

function fileStamp(path: string): string {
  const st = lstatSync(path, { throwIfNoEntry: false, bigint: true });
  return st === undefined ? "" : `${st.ino}:${st.size}:${st.ctimeNs}`;
}

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

export const SESSION_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

/** Sessions untouched for `maxAgeMs`, in the git folder and in `.cpilot/`; how many went. */
export function pruneSessions(
  root: string,
  maxAgeMs = SESSION_MAX_AGE_MS,
  now = Date.now(),
): number {
  let removed = 0;
  for (const at of new Set([root, resultsHome(root)])) {
    const inGit = gitStatePath(at, STATE.sessions);
    if (inGit !== null && ownGitStatePath(at, STATE.sessions))
      removed += pruneIn(inGit, maxAgeMs, now);
  }
  if (isOwnStateDir(root, STATE.sessions))
    removed += pruneIn(statePath(root, STATE.sessions), maxAgeMs, now);
  return removed;
}

/** Exported for the turn records kept outside the project (src/hook/turn-record-store.ts). */
export function pruneIn(dir: string, maxAgeMs: number, now: number): number {
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

/** Readers never see half a file; no fsync: a lost fact costs a repeated reminder, an fsync every edit. */
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
