import { writeFileSync } from "node:fs";
import { ProjectSnapshot } from "../cache/content.ts";
import { LocalStore } from "../cache/local-store.ts";
import { changedSince, type RunKey, runKey, type Surroundings } from "../cache/run-key.ts";
import type { CheckRecord } from "../cache/store.ts";
import type { ResolvedCallback } from "../config/resolve.ts";
import { stoppedEarly } from "../diagnostics/baseline/stops-early.ts";
import type { Diagnostic } from "../model/diagnostic.ts";
import type { RunStatus } from "../model/outcome.ts";

/** `CPILOT_CACHE=0` turns the result cache off for one command (a benchmark's cold runs). */
function cacheOff(): boolean {
  return process.env.CPILOT_CACHE === "0";
}

/**
 * May this run's result be replayed from, and recorded in, the result cache? A command
 * (a function may read anything), blocking (a background run is a process the person
 * wants), not started by a trigger (it is handed another run's output), with no triggers
 * of its own (they act on the run as it goes), and not turned off with `cache: false`.
 */
export function cacheable(
  callback: ResolvedCallback,
  triggered: boolean,
  wholeProject: boolean,
): boolean {
  return (
    !cacheOff() &&
    callback.cache !== false &&
    typeof callback.run !== "function" &&
    callback.blocking &&
    !triggered &&
    callback.triggers === undefined &&
    // A fixer of the whole project may rewrite any file: its changes cannot be told from its key.
    !(callback.fixes && wholeProject)
  );
}

/**
 * What a run of the check reads besides its files (see runKey): the files its `inputs`
 * select when it declares them; else anything but the files its own patterns select (taken
 * to be read by one of its runs only when given to it).
 */
export function readsOf(callback: ResolvedCallback): Surroundings {
  const inputs = callback.inputs;
  if (inputs !== undefined)
    return { inputs: inputs.patterns, matches: (path) => inputs.matcher.matches(path) };
  return { own: (path) => callback.matcher.matches(path) };
}

/** The one store a process uses per project (a remote store goes in front of it later). */
const stores = new Map<string, LocalStore>();
function storeOf(root: string): LocalStore {
  let store = stores.get(root);
  if (store === undefined) {
    store = new LocalStore(root);
    stores.set(root, store);
  }
  return store;
}

/** A run's key, and its record when one may be replayed. */
export interface CacheLookup {
  readonly key: RunKey;
  readonly record: CheckRecord | undefined;
}

/**
 * Look the run up: its key from the check's definition and the content it reads, and the
 * record under it. A fixer's record is replayed only when it changed nothing.
 */
export function lookUp(
  root: string,
  definition: string,
  files: readonly string[],
  wholeProject: boolean,
  reads?: Surroundings,
  project: ProjectSnapshot = new ProjectSnapshot(root),
): CacheLookup | null {
  const key = runKey(root, definition, files, wholeProject, reads, project);
  if (key === null) return null;
  const record = storeOf(root).getSync(key.key);
  const usable = record !== undefined && record.changed.length === 0;
  return { key, record: usable ? record : undefined };
}

/** Write a replayed record's output to the run's log, so `cpilot logs` shows it. */
export function writeReplayLog(logPath: string | null, record: CheckRecord): void {
  if (logPath === null) return;
  try {
    const when = new Date(record.at).toISOString();
    writeFileSync(
      logPath,
      `[cpilot] from cache: the result of ${record.callback} on the same content (run ${when})\n${record.tail.join("\n")}\n`,
    );
  } catch {
    // the log is a convenience; the replayed result reaches the caller anyway
  }
}

/**
 * Record a finished run under its key: a run that passed, failed or was silent, whose
 * diagnostics were read whole. A fixer that rewrote a file is recorded with what it changed
 * (so it is never replayed). Best effort; the record when it was kept.
 */
export function remember(
  root: string,
  callback: ResolvedCallback,
  key: RunKey,
  after: ProjectSnapshot,
  run: {
    status: RunStatus;
    exitCode: number | null;
    durationMs: number;
    summary: string;
    tail: readonly string[];
    diagnostics: readonly Diagnostic[] | undefined;
    cut: boolean;
  },
): CheckRecord | undefined {
  if (run.status !== "passed" && run.status !== "failed" && run.status !== "silent")
    return undefined;
  if (run.cut) return undefined;
  const changed = changedSince(root, key);
  // A check whose files changed while it ran read neither content whole: not recorded.
  if (changed.length > 0 && !callback.fixes) return undefined;
  if (key.whole !== null && key.whole !== after.key()) return undefined;
  const record: CheckRecord = {
    v: 1,
    key: key.key,
    callback: callback.name,
    status: run.status,
    exitCode: run.exitCode,
    durationMs: run.durationMs,
    summary: run.summary,
    tail: [...run.tail],
    diagnostics: (run.diagnostics ?? []).map(unmarked),
    read: key.read,
    stoppedEarly: run.status === "failed" && stoppedEarly(run.diagnostics ?? []),
    changed,
    at: Date.now(),
  };
  return storeOf(root).putSync(key.key, record) ? record : undefined;
}

/** A diagnostic without the marks of who asked (new or old is judged again on replay). */
function unmarked(d: Diagnostic): Diagnostic {
  const { baseline: _b, since: _s, ...rest } = d;
  return rest;
}
