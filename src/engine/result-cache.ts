import { writeFileSync } from "node:fs";
import { ProjectSnapshot } from "../cache/content.ts";
import { LocalStore } from "../cache/local-store.ts";
import { changedSince, type RunKey, runKey, type Surroundings } from "../cache/run-key.ts";
import type { CheckRecord } from "../cache/store.ts";
import type { ResolvedCallback } from "../config/resolve.ts";
import { stoppedEarly } from "../diagnostics/baseline/stops-early.ts";
import type { Diagnostic } from "../model/diagnostic.ts";
import type { RunStatus } from "../model/outcome.ts";

function cacheOff(): boolean {
  return process.env.CPILOT_CACHE === "0";
}

/**
 * May this run's result be replayed from, and recorded in, the cache? A blocking command not
 * started by a trigger, with no triggers of its own, not `cache: false`: a function may read
 * anything, and a background run is a process the person wants.
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

/** What a check reads besides its files: its `inputs`, else anything but the files its own patterns select. */
export function readsOf(callback: ResolvedCallback): Surroundings {
  const inputs = callback.inputs;
  if (inputs !== undefined)
    return { inputs: inputs.patterns, matches: (path) => inputs.matcher.matches(path) };
  return { own: (path) => callback.matcher.matches(path) };
}

const stores = new Map<string, LocalStore>();
function storeOf(root: string): LocalStore {
  let store = stores.get(root);
  if (store === undefined) {
    store = new LocalStore(root);
    stores.set(root, store);
  }
  return store;
}

export interface CacheLookup {
  readonly key: RunKey;
  readonly record: CheckRecord | undefined;
}

/** The run's key from its definition and content, and the record under it. A fixer's record is replayed only when it changed nothing. */
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
 * Record a finished run under its key (best effort). A fixer that rewrote a file is recorded
 * with what it changed, so it is never replayed.
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
  const changed = changedSince(root, key, after);
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

/** New or old is judged again on replay. */
function unmarked(d: Diagnostic): Diagnostic {
  const { baseline: _b, since: _s, ...rest } = d;
  return rest;
}
