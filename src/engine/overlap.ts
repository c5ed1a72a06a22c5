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

/** What a lock file says about the run holding it. */
interface Holder {
  pid: number;
  /** When that process started (Linux: /proc/<pid>/stat), so a reused pid is not taken for it. */
  started?: number | null;
  runId: string;
  batchId: string;
  /** The run's process group once spawned (a record's `pid`), and when its leader started. */
  runPid?: number | null;
  runStarted?: number | null;
}

/**
 * A held per-callback lock; `release` is idempotent. A replacing run in another process
 * finds the holder's process group in its running record (`.cpilot/running/<run id>.json`).
 */
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
 * The lock file's holder, or null while it cannot be read as one (caught mid-write, or not
 * written by cpilot). A lock is the holder's running record under another name (its host
 * is the holder), or, where files cannot be linked, a holder of its own. Its ids become
 * paths and its group gets signals: both are checked.
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
 * A lock file seen unreadable, as the same file, for this long is not being written: it is
 * left over (a host killed mid-write), or garbage. Counted from when this process first saw
 * it so, never from the file's mtime: a waiting run's record is old when it takes the lock,
 * and judging by that once let a waiter delete a lock that had just been taken.
 */
const TORN_LOCK_MS = 2000;

/**
 * The lock file's identity (device and inode), or null when there is none. Not a regular
 * file (a FIFO, a folder planted there): never a lock cpilot made, marked so.
 */
function fileId(path: string): string | null {
  try {
    const st = lstatSync(path);
    return `${st.dev}:${st.ino}${st.isFile() ? "" : ":odd"}`;
  } catch {
    return null;
  }
}

/** Path of the marker that tells a run it was replaced, and by whom. */
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
 * Take the lock: another name for the run's pending record (`holderFile`, see
 * openPendingRecord), which says who holds it, made in one step that fails while another
 * run holds it. Where files cannot be linked, a file of its own saying the same.
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
 * Take the lock of a callback for a `queue` or `replace` run, across every cpilot process
 * of the project (locks live in `.cpilot/locks/`). queue waits for the holder; replace
 * stops a holder from an earlier batch (and marks it replaced) and then waits for it to
 * let go. Runs of the same batch always queue behind each other. `holderFile` is the run's
 * pending record, written with this process as its host and `batchId`.
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
      // Unreadable: caught mid-write, left over by a crash, or not cpilot's. Removed once
      // the same file stayed so for a while (and only that file, see breakStaleLock).
      if (fileId(path) !== id) continue;
      const since = unreadableSince.get(id) ?? Date.now();
      unreadableSince.set(id, since);
      if (id.endsWith(":odd") || Date.now() - since > TORN_LOCK_MS) {
        await breakStaleLock(path, id, () => readHolder(path) === null);
      } else await sleep(POLL_MS);
      continue;
    }
    if (!alive(holder)) {
      // Its host died without letting go (SIGKILL): what it started may still run, and no
      // one will ever read its result or enforce its timeout. Stop that first, so a second
      // copy never runs beside it, then remove the lock (only that file, only if still so).
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

/** Lock files (by identity) this process saw unreadable, and since when. */
const unreadableSince = new Map<string, number>();

/** A break lock older than this was left by a process killed in the few steps it covers. */
const STALE_BREAK_MS = 10_000;

/**
 * Remove a lock judged stale, without ever removing one taken since: waiters that judged
 * the same stale lock could otherwise each remove it, the second one removing the lock a
 * third run had taken meanwhile. Breakers take turns through `<lock>.break` (made with
 * O_EXCL), and under it the lock must still be the same file (`id`) and still stale.
 * Only breakers remove a lock that is not their own, and a holder removes only its own.
 */
async function breakStaleLock(path: string, id: string, stillStale: () => boolean): Promise<void> {
  const guard = `${path}.break`;
  let fd: number;
  try {
    fd = openSync(guard, "wx");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    // Another waiter is breaking it (a few steps), or one was killed doing so.
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
 * Stop what earlier runs of `callback` left running when their host died (SIGKILL), before
 * another run of it starts: every run writes its record, with its host's identity, before
 * its process exists (execute-run.ts), so a host killed between the spawn and recording
 * the process is found too, its processes by the run id in their environment. A lock finds
 * only its last holder, and a run that takes none (`overlap: "parallel"`) has no lock.
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

/**
 * Stop what a run whose host died left running: its process group, and every process it
 * started that left the group. Waits until they are gone (SIGKILL after the grace period).
 */
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
  // its leader must still be the run's (or be gone, leaving the group), not a reused pid
  const leader = processStartTime(pgid);
  if (leader !== null && holder.runStarted != null && leader !== holder.runStarted) return;
  if (!groupAlive(pgid)) return;
  writeFileAtomic(stopMarkerPath(root, holder.runId), "the cpilot process running it died", {
    durable: false,
  });
  // its host (the subreaper) is gone: what escaped the group went to init, found anywhere
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
