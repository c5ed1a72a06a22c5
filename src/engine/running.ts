import {
  closeSync,
  constants,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { isSameProcess, processStartTime } from "../platform/process-start.ts";
import { processesWithEnv } from "../platform/process-tree.ts";
import { groupAlive, isRunGroup, KILL_GRACE_MS, reapGroup } from "../platform/spawn-group.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { isOwnStateDir, stateDir } from "../util/state-dir.ts";
import { readStateFile } from "../util/state-file.ts";
import { STATE, statePath } from "../util/state-layout.ts";
import { isRunId } from "./run-id.ts";

/**
 * A spawned process group running now, under `.cpilot/running/<run id>.json`, for
 * `cpilot ps` and `cpilot stop`. A run that takes an overlap lock writes it before its
 * process exists (`pid` null): the lock is another name for the same file.
 */
export interface RunningRecord {
  readonly runId: string;
  readonly callback: string;
  readonly pid: number;
  readonly session: string | null;
  readonly ownerPid: number;
  readonly hostPid: number;
  readonly hostStarted?: number | null;
  /** Runs of one batch queue, they never replace each other. */
  readonly batchId?: string;
  readonly startedAt: number;
  /** Tells the run's process from a reused pid. */
  readonly pidStarted?: number | null;
  readonly command: string;
  readonly blocking: boolean;
  readonly persist: boolean;
  readonly depth: number;
}

export function runningDir(root: string): string {
  return statePath(root, STATE.running);
}

function recordPath(root: string, runId: string): string {
  return join(runningDir(root), `${runId}.json`);
}

export function stopMarkerPath(root: string, runId: string): string {
  return join(runningDir(root), `${runId}.stop`);
}

/** Readers see it whole; no fsync: these records only matter while the machine is up. */
function writeWhole(path: string, text: string): void {
  writeFileAtomic(path, text, { durable: false });
}

export function registerRunning(root: string, given: RunningRecord): string {
  const record = { ...given, pidStarted: given.pidStarted ?? processStartTime(given.pid) };
  stateDir(root, STATE.running);
  const path = recordPath(root, record.runId);
  writeWhole(path, JSON.stringify(record));
  return path;
}

export interface PendingRecord {
  readonly path: string;
  /** Write the spawned group in: the same file, so its other names (the lock) see it. */
  spawned(pid: number): void;
  close(): void;
}

/**
 * Write a run's record with no process yet, to become its lock's file. Completed through the
 * descriptor kept here, so nothing planted at its path meanwhile is written to.
 */
export function openPendingRecord(
  root: string,
  fields: Omit<RunningRecord, "pid" | "pidStarted">,
): PendingRecord {
  stateDir(root, STATE.running);
  const path = recordPath(root, fields.runId);
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o644,
  );
  let open = true;
  const put = (record: object): void => {
    const bytes = Buffer.from(JSON.stringify(record));
    // One write at offset 0: the record only grows, so a lock reader never sees it empty
    // and never takes a live holder's lock for a torn one.
    if (writeSync(fd, bytes, 0, bytes.length, 0) !== bytes.length) {
      throw new Error(`short write to ${path}`);
    }
    ftruncateSync(fd, bytes.length);
  };
  try {
    put({ ...fields, pid: null });
  } catch (err) {
    closeSync(fd);
    rmSync(path, { force: true });
    throw err;
  }
  return {
    path,
    spawned(pid) {
      if (open) put({ ...fields, pid, pidStarted: processStartTime(pid) });
    },
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
  };
}

/** One run's record, when its pid still is the run's process group; else null. */
export function runningRecord(root: string, runId: string): RunningRecord | null {
  if (!isRunId(runId)) return null;
  try {
    const record = JSON.parse(
      readStateFile(recordPath(root, runId), 64 * 1024) ?? "null",
    ) as RunningRecord | null;
    if (record?.runId !== runId || !isRunGroup(record.pid) || !leaderIsTheRun(record)) return null;
    return record;
  } catch {
    return null; // being written, or not a record
  }
}

export function unregisterRunning(root: string, runId: string): void {
  rmSync(recordPath(root, runId), { force: true });
}

/** Why a run was stopped from outside, if it was; consumes the marker. */
export function takeStopReason(root: string, runId: string): string | null {
  const path = stopMarkerPath(root, runId);
  try {
    const reason = readFileSync(path, "utf8").trim();
    rmSync(path, { force: true });
    return reason || "stopped";
  } catch {
    return null;
  }
}

export function processAlive(pid: number): boolean {
  return signalZero(pid);
}

function signalZero(target: number): boolean {
  try {
    process.kill(target, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Never what a symlinked .cpilot leads to, whose records would be signalled or deleted. */
export function runningRecordNames(root: string): string[] {
  if (!isOwnStateDir(root, STATE.running)) return [];
  try {
    return readdirSync(runningDir(root)).filter((n) => n.endsWith(".json") && !n.startsWith("."));
  } catch {
    return [];
  }
}

/** Every running record, oldest first; records of groups that are gone are removed. */
export function listRunning(root: string): RunningRecord[] {
  const names = runningRecordNames(root);
  const out: RunningRecord[] = [];
  for (const name of names) {
    let record: RunningRecord;
    try {
      record = JSON.parse(readFileSync(join(runningDir(root), name), "utf8")) as RunningRecord;
    } catch {
      continue; // being written or removed right now
    }
    // Not a record cpilot wrote: never signalled, never deleted.
    if (!isRunId(record?.runId) || name !== `${record.runId}.json`) continue;
    if ((record as { pid: unknown }).pid === null) {
      // not spawned yet: forgotten once its host is gone (what it started carries its id)
      if (hostGone(record) && processesWithEnv(`CP_RUN_ID=${record.runId}`).length === 0)
        unregisterRunning(root, record.runId);
      continue;
    }
    if (!isRunGroup(record.pid) || !leaderIsTheRun(record)) continue;
    if (groupAlive(record.pid)) out.push(record);
    else unregisterRunning(root, record.runId);
  }
  return out.sort((a, b) => a.startedAt - b.startedAt || a.runId.localeCompare(b.runId));
}

/** Stop a run from any process: mark why, SIGTERM the group, SIGKILL after the grace. */
export async function stopRunning(
  root: string,
  runId: string,
  reason: string,
  graceMs = KILL_GRACE_MS,
): Promise<RunningRecord | null> {
  const record = listRunning(root).find((r) => r.runId === runId);
  if (record === undefined) return null;
  writeWhole(stopMarkerPath(root, runId), reason);
  await reapGroup(record.pid, graceMs, `CP_RUN_ID=${record.runId}`, true);
  unregisterRunning(root, runId);
  return record;
}

/**
 * Stop every run a session started, except `persist` ones (for Claude Code's SessionEnd).
 *
 * @example
 * await stopSessionRuns(root, sessionId);
 */
export async function stopSessionRuns(
  root: string,
  session: string,
  options: { graceMs?: number; includePersist?: boolean } = {},
): Promise<RunningRecord[]> {
  const mine = listRunning(root).filter(
    (r) => r.session === session && (options.includePersist === true || !r.persist),
  );
  const stopped = await Promise.all(
    mine.map((r) => stopRunning(root, r.runId, "its session ended", options.graceMs)),
  );
  return stopped.filter((r): r is RunningRecord => r !== null);
}

/** Stop runs whose owner process is gone (killed before its watchdog ran). */
export async function stopOrphans(root: string, graceMs?: number): Promise<RunningRecord[]> {
  const orphans = listRunning(root).filter((r) => !r.persist && !processAlive(r.ownerPid));
  const stopped = await Promise.all(
    orphans.map((r) => stopRunning(root, r.runId, "its session ended", graceMs)),
  );
  return stopped.filter((r): r is RunningRecord => r !== null);
}

/** Is the record's pid still the run's? Its start time must match where /proc tells it; a gone leader is taken as the run's. */
function leaderIsTheRun(record: RunningRecord): boolean {
  const now = processStartTime(record.pid);
  return now === null || now === record.pidStarted;
}

function hostGone(record: RunningRecord): boolean {
  return (
    !Number.isSafeInteger(record.hostPid) ||
    record.hostPid <= 1 ||
    !processAlive(record.hostPid) ||
    !isSameProcess(record.hostPid, record.hostStarted)
  );
}
