import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readdirSync,
  rmSync,
  unlinkSync,
} from "node:fs";
import { join } from "node:path";
import type { Per } from "../config/types.ts";
import type { RunResult } from "../model/outcome.ts";
import { writeFileAtomic, writeFileReusing } from "../util/atomic-write.ts";
import { isOwnStateDir, stateDir } from "../util/state-dir.ts";
import { readStateFile } from "../util/state-file.ts";
import { runRecordPath, STATE, statePath } from "../util/state-layout.ts";
import { isRunId } from "./run-id.ts";

/** `.cpilot/runs/<id>.log` beside `<id>.json`. */
export function runsDir(root: string): string {
  return statePath(root, STATE.runs);
}

export function prepareLog(root: string, runId: string): string {
  return join(stateDir(root, STATE.runs), `${runId}.log`);
}

/** Record a finished run next to its log; a run recorded as running hands over that file. */
export function saveRunRecord(root: string, run: StoredRun, runningRecord?: string): void {
  stateDir(root, STATE.runs); // a real folder of the project, never through a symlink
  const path = runRecordPath(root, run.id);
  const text = `${JSON.stringify(run)}\n`;
  if (runningRecord !== undefined) {
    if (writeFileReusing(path, text, runningRecord)) return;
    rmSync(runningRecord, { force: true });
  }
  writeFileAtomic(path, text, { durable: false });
}

export type StoredRun = RunResult & {
  startedAt: number;
  per?: Per;
  diagnosticsTotal?: number;
};

/** Recent runs, newest first. */
export function listRuns(root: string, limit = 20): StoredRun[] {
  let names: string[];
  try {
    names = readdirSync(runsDir(root)).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  names.sort().reverse();
  const runs: StoredRun[] = [];
  for (const name of names.slice(0, limit)) {
    const run = readRun(root, name.slice(0, -5));
    if (run) runs.push(run);
  }
  return runs;
}

/** One stored run record, or null. Anyone can write the file: its shape is checked, and its log is always `<run id>.log` beside it. */
export function readRun(root: string, runId: string): StoredRun | null {
  if (!isRunId(runId)) return null;
  let value: unknown;
  try {
    value = JSON.parse(readStateFile(runRecordPath(root, runId), 32 << 20) ?? "null");
  } catch {
    return null;
  }
  if (!isRecord(value)) return null;
  return { ...value, id: runId, logPath: join(runsDir(root), `${runId}.log`) };
}

function isRecord(v: unknown): v is StoredRun {
  if (typeof v !== "object" || v === null) return false;
  const r = v as Record<string, unknown>;
  return (
    typeof r.callback === "string" &&
    typeof r.status === "string" &&
    typeof r.summary === "string" &&
    typeof r.durationMs === "number" &&
    typeof r.startedAt === "number" &&
    Array.isArray(r.files) &&
    r.files.every((f) => typeof f === "string") &&
    (r.tail === undefined || (Array.isArray(r.tail) && r.tail.every((l) => typeof l === "string")))
  );
}

/** The run's log opened for reading, or null (never through a symlink, never waiting on a FIFO). */
export function openRunLog(run: StoredRun): number | null {
  let fd: number | undefined;
  try {
    fd = openSync(run.logPath, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    if (fstatSync(fd).isFile()) return fd;
  } catch {
    // missing
  }
  if (fd !== undefined) closeSync(fd);
  return null;
}

function unlinkIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already (another call pruned it)
  }
}

const RUN_FILE = /^[0-9a-z]+-[0-9a-f]+\.(?:log|json)$/;

const PRUNE_STEP = 4;

/**
 * Keep only the newest `keep` runs. With a `budget`, old runs go a few at a time while the
 * excess is small, so no single hook call pays for a burst of unlinks.
 */
export function pruneRuns(root: string, keep: number, budget = Number.POSITIVE_INFINITY): void {
  if (!isOwnStateDir(root, STATE.runs)) return; // never delete through a symlink
  let names: string[];
  try {
    names = readdirSync(runsDir(root));
  } catch {
    return;
  }
  // most calls stop here, before listing and sorting
  const tenth = Math.ceil(keep / 10);
  const due = budget === Number.POSITIVE_INFINITY ? 1 : Math.min(PRUNE_STEP, tenth + 1);
  if (names.length < 2 * (keep + due)) return;
  // Only what cpilot wrote: `<run id>.log` and `<run id>.json`.
  const ids = [
    ...new Set(names.filter((n) => RUN_FILE.test(n)).map((n) => n.replace(/\.(log|json)$/, ""))),
  ].sort();
  const excess = ids.length - keep;
  if (excess < due) return;
  const count = excess > tenth ? excess : Math.min(excess, Math.max(budget, PRUNE_STEP));
  for (const id of ids.slice(0, count)) {
    unlinkIfThere(join(runsDir(root), `${id}.log`));
    unlinkIfThere(join(runsDir(root), `${id}.json`));
  }
}
