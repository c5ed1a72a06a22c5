import {
  closeSync,
  existsSync,
  linkSync,
  lstatSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { ownStartTime, processStartTime } from "../platform/process-start.ts";
import { processesWithEnv } from "../platform/process-tree.ts";
import {
  groupAlive,
  isRunGroup,
  KILL_GRACE_MS,
  killGroup,
  reapGroup,
} from "../platform/spawn-group.ts";
import { anyAlive, signalEach } from "../platform/stop-tree.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { tryUnlink } from "../util/dir-lock.ts";
import { stateDir } from "../util/state-dir.ts";
import { readStateFile } from "../util/state-file.ts";
import { STATE } from "../util/state-layout.ts";
import { isRunId } from "./run-id.ts";
import {
  runningDir,
  runningRecord,
  runningRecordNames,
  stopMarkerPath,
  unregisterRunning,
} from "./running.ts";

interface Holder {
  pid: number;
  /** When that process started, so a reused pid is not taken for it. */
  started?: number | null;
  runId: string;
  batchId: string;
  runPid?: number | null;
  runStarted?: number | null;
}

/** A held per-callback lock; `release` is idempotent. */
export interface OverlapLock {
  release(): void;
}

const POLL_MS = 25;

function lockDir(root: string): string {
  return stateDir(root, STATE.locks);
}

/** The holder's process lives, and is the same process (not its pid reused by another). */
function alive(holder: Holder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const now = processStartTime(holder.pid);
  return holder.started == null || now === null || now === holder.started;
}

/**
 * The lock file's holder, or null while it cannot be read as one (mid-write, or not cpilot's).
 * Its ids become paths and its group gets signals: both are checked.
 */
function readHolder(path: string): Holder | null {
  try {
    const raw = JSON.parse(readStateFile(path, 64 * 1024) ?? "null") as Record<
      string,
      unknown
    > | null;
    const h: Partial<Holder> | null =
      raw !== null && "hostPid" in raw
        ? {
            pid: raw.hostPid as number,
            started: (raw.hostStarted as number | null | undefined) ?? null,
            runId: raw.runId as string,
            batchId: raw.batchId as string,
            runPid: (raw.pid as number | null | undefined) ?? null,
            runStarted: (raw.pidStarted as number | null | undefined) ?? null,
          }
        : (raw as Partial<Holder> | null);
    if (
      h === null ||
      !isRunId(h.runId) ||
      typeof h.batchId !== "string" ||
      !Number.isSafeInteger(h.pid) ||
      (h.pid as number) <= 1
    ) {
      return null;
    }
    return h as Holder;
  } catch {
    return null;
  }
}

/**
 * A lock file seen unreadable, as the same file, this long is left over or garbage. Counted
 * from when this process first saw it, never from its mtime: a waiting run's record is old
 * when it takes the lock.
 */
const TORN_LOCK_MS = 2000;

/** The lock file's identity (device and inode); not a regular file: never a lock cpilot made. */
function fileId(path: string): string | null {
  try {
    const st = lstatSync(path);
    return `${st.dev}:${st.ino}${st.isFile() ? "" : ":odd"}`;
  } catch {
    return null;
  }
}

export function replacedMarker(root: string, runId: string): string {
  return join(lockDir(root), `${runId}.replaced-by`);
}

/** Which run replaced `runId`, if one did; consumes the marker. */
export function takeReplacedBy(root: string, runId: string): string | null {
  const path = replacedMarker(root, runId);
  if (!existsSync(path)) return null;
  try {
    const by = readFileSync(path, "utf8").trim();
    unlinkSync(path);
    return by;
  } catch {
    return null;
  }
}

/** In-process runs, so a replace can abort a TypeScript function run of this process. */
const localAborts = new Map<string, AbortController>();

/**
 * Take the lock: another name for the run's pending record, made in one step that fails
 * while another run holds it. Where files cannot be linked, a file of its own.
 */
function takeLock(path: string, holderFile: string, me: Holder): void {
  try {
    linkSync(holderFile, path);
    return;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "EPERM" && code !== "ENOTSUP" && code !== "EXDEV" && code !== "EMLINK") {
      throw err;
    }
  }
  const fd = openSync(path, "wx");
  try {
    writeSync(fd, JSON.stringify(me));
  } finally {
    closeSync(fd);
  }
}

/**
 * Take a callback's lock for a `queue` or `replace` run, across every cpilot process of the
 * project. queue waits for the holder; replace stops a holder from an earlier batch first.
 * Runs of the same batch always queue behind each other.
 */
export async function acquireOverlap(options: {
  root: string;
  callback: string;
  mode: "queue" | "replace";
  runId: string;
  batchId: string;
  holderFile: string;
  signal: AbortSignal;
  abort: AbortController;
}): Promise<OverlapLock | null> {
  const path = join(lockDir(options.root), `${options.callback}.lock`);
  const me: Holder = {
    pid: process.pid,
    started: ownStartTime(),
    runId: options.runId,
    batchId: options.batchId,
  };
  let marked: string | null = null;
  let stopped: string | null = null;
  while (!options.signal.aborted) {
    try {
      takeLock(path, options.holderFile, me);
      localAborts.set(options.runId, options.abort);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          localAborts.delete(options.runId);
          const current = readHolder(path);
          if (current?.runId === options.runId) unlinkSync(path);
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const id = fileId(path);
    if (id === null) continue; // let go meanwhile: try again at once
    const holder = readHolder(path);
    if (holder === null) {
      // Unreadable: removed once the same file stayed so for a while.
      if (fileId(path) !== id) continue;
      const since = unreadableSince.get(id) ?? Date.now();
      unreadableSince.set(id, since);
      if (id.endsWith(":odd") || Date.now() - since > TORN_LOCK_MS) {
        await breakStaleLock(path, id, () => readHolder(path) === null);
      } else await sleep(POLL_MS);
      continue;
    }
    if (!alive(holder)) {
      // Its host died without letting go: what it started may still run unwatched. Stop that
      // first, so a second copy never runs beside it, then remove the lock.
      await stopHostless(options.root, holder);
      await breakStaleLock(path, id, () => {
        const now = readHolder(path);
        return now !== null && now.runId === holder.runId && !alive(now);
      });
      continue;
    }
    if (
      options.mode === "replace" &&
      holder.batchId !== options.batchId &&
      stopped !== holder.runId
    ) {
      if (marked !== holder.runId) {
        marked = holder.runId;
        writeFileAtomic(replacedMarker(options.root, holder.runId), options.runId, {
          durable: false,
        });
      }
      // The holder may not have spawned its child yet: try again on the next poll.
      const local = localAborts.get(holder.runId);
      const child = local ? null : runningRecord(options.root, holder.runId);
      if (local) local.abort();
      else if (child) killGroup(child.pid, "SIGTERM");
      if (local || child) stopped = holder.runId;
    }
    await sleep(POLL_MS);
  }
  return null;
}

const unreadableSince = new Map<string, number>();

/** A break lock older than this was left by a process killed while breaking. */
const STALE_BREAK_MS = 10_000;

/**
 * Remove a stale lock without ever removing one taken since: breakers take turns through
 * `<lock>.break` (O_EXCL), under which the lock must still be the same file and still stale.
 */
async function breakStaleLock(path: string, id: string, stillStale: () => boolean): Promise<void> {
  const guard = `${path}.break`;
  let fd: number;
  try {
    fd = openSync(guard, "wx");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    // Another waiter is breaking it, or one was killed doing so.
    const guardId = fileId(guard);
    if (guardId !== null && olderThan(guard, STALE_BREAK_MS) && fileId(guard) === guardId) {
      tryUnlink(guard);
    }
    await sleep(POLL_MS);
    return;
  }
  try {
    if (fileId(path) === id && stillStale()) {
      unlinkSync(path);
      unreadableSince.delete(id);
    }
  } finally {
    closeSync(fd);
    tryUnlink(guard);
  }
}

/**
 * Stop what earlier runs of `callback` left running when their host died, before another run
 * starts. Every run writes its record before its process exists, so a host killed right after
 * the spawn is found too, its processes by the run id in their environment.
 */
export async function stopHostlessRuns(root: string, callback: string): Promise<void> {
  for (const name of runningRecordNames(root)) {
    const path = join(runningDir(root), name);
    let own: unknown;
    try {
      own = (JSON.parse(readStateFile(path, 64 * 1024) ?? "null") as { callback?: unknown })
        ?.callback;
    } catch {
      continue; // being written, or not a record
    }
    if (own !== callback) continue;
    const holder = readHolder(path);
    if (holder === null || name !== `${holder.runId}.json` || alive(holder)) continue;
    await stopHostless(root, holder);
    unregisterRunning(root, holder.runId);
  }
}

/** Stop a dead host's run: its group and what left the group; waits until they are gone. */
async function stopHostless(root: string, holder: Holder): Promise<void> {
  const pgid = holder.runPid;
  const marker = `CP_RUN_ID=${holder.runId}`;
  if (!isRunGroup(pgid)) {
    // killed before it wrote its process down: what it started carries its id
    const left = processesWithEnv(marker);
    if (left.length === 0) return;
    signalEach(left, "SIGTERM");
    const deadline = Date.now() + KILL_GRACE_MS;
    while (Date.now() < deadline && anyAlive(left)) await sleep(POLL_MS);
    signalEach(left, "SIGKILL");
    return;
  }
  // its leader must still be the run's (or be gone), not a reused pid
  const leader = processStartTime(pgid);
  if (leader !== null && holder.runStarted != null && leader !== holder.runStarted) return;
  if (!groupAlive(pgid)) return;
  writeFileAtomic(stopMarkerPath(root, holder.runId), "the cpilot process running it died", {
    durable: false,
  });
  // its host (the subreaper) is gone: what escaped the group went to init
  await reapGroup(pgid, KILL_GRACE_MS, marker, true);
}

function olderThan(path: string, ms: number): boolean {
  try {
    return Date.now() - lstatSync(path).mtimeMs > ms;
  } catch {
    return false;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
