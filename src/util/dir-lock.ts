// An exclusive lock across processes on a folder, for a read-modify-write of files in it
// (context files updated by several agents, hooks and CLIs at once). The lock is made in
// one step (which fails while it exists) and names its holder's pid and start time, so a
// holder that died is told from a live one, and a reused pid is not taken for it. Breaking
// a dead holder's lock goes through a second, short-lived lock, so two waiters cannot both
// break it and the second remove the lock the first one took since. Synchronous: the holder's critical section is
// synchronous too, and the callers' APIs are.
import {
  closeSync,
  lstatSync,
  openSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { ownStartTime, processStartTime } from "../platform/process-start.ts";
import type { VerifiedDir } from "./verified-dir.ts";

interface Holder {
  pid: number;
  started: number | null;
}

/** A lock file unreadable for this long is not being written: left over, or garbage. */
const TORN_MS = 2000;
/** A breaker holds its lock for microseconds; one older than this died holding it. */
const BREAK_STALE_MS = 5000;
const POLL_MS = 10;

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/** Remove a file that another process may have removed first; either way it is gone. */
export function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/** The holder a lock names, with the lock's identity (to remove only that one). */
function readLock(path: string): { holder: Holder | null; ino: number; mtimeMs: number } | null {
  let text: string;
  let st: { ino: number; mtimeMs: number; isSymbolicLink(): boolean };
  try {
    st = lstatSync(path);
    text = st.isSymbolicLink() ? readlinkSync(path) : readFileSync(path, "utf8").slice(0, 4096);
  } catch {
    return null;
  }
  let holder: Holder | null = null;
  try {
    const raw = JSON.parse(text) as Partial<Holder>;
    if (Number.isSafeInteger(raw.pid) && (raw.pid as number) > 0) {
      holder = {
        pid: raw.pid as number,
        started: typeof raw.started === "number" ? raw.started : null,
      };
    }
  } catch {
    // torn or foreign
  }
  return { holder, ino: st.ino, mtimeMs: st.mtimeMs };
}

/** The holder's process lives and is the same process (not its pid reused). */
function alive(holder: Holder): boolean {
  if (holder.pid === process.pid) return holder.started === ownStartTime();
  try {
    process.kill(holder.pid, 0);
  } catch (err) {
    if (code(err) !== "EPERM") return false;
  }
  const now = processStartTime(holder.pid);
  return holder.started === null || now === null || now === holder.started;
}

/**
 * Make `lock` in one step with `content`; false while it exists. The lock is a symlink whose
 * target is the holder (as Emacs's lock files): made whole in one step, and needing no data
 * block (a full disk or a file size limit does not stop it). A file system without symlinks
 * gets an exclusive file, its content written right after.
 */
function create(dir: VerifiedDir, lock: string, content: string): boolean {
  try {
    symlinkSync(content, dir.at(lock));
    return true;
  } catch (err) {
    if (code(err) === "EEXIST") return false;
    if (!["EPERM", "ENOTSUP", "ENOSYS", "EOPNOTSUPP"].includes(code(err) ?? "")) throw err;
  }
  let fd: number;
  try {
    fd = openSync(dir.at(lock), "wx", 0o644);
  } catch (err) {
    if (code(err) === "EEXIST") return false;
    throw err;
  }
  try {
    writeSync(fd, content);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Remove `lock` if it is still the one (`ino`) whose holder died; one breaker at a time.
 * False when another breaker is at it (the caller waits a moment).
 */
function breakDead(dir: VerifiedDir, lock: string, ino: number): boolean {
  const breaker = `${lock}.break`;
  let fd: number;
  try {
    fd = openSync(dir.at(breaker), "wx", 0o644);
  } catch (err) {
    if (code(err) !== "EEXIST") throw err;
    try {
      if (Date.now() - lstatSync(dir.at(breaker)).mtimeMs > BREAK_STALE_MS)
        tryUnlink(dir.at(breaker));
    } catch {
      // gone already
    }
    return false;
  }
  closeSync(fd);
  try {
    // Under the breaker a dead holder's lock cannot change: only a breaker removes it.
    const again = readLock(dir.at(lock));
    if (again !== null && again.ino === ino && (again.holder === null || !alive(again.holder))) {
      tryUnlink(dir.at(lock));
    }
  } finally {
    tryUnlink(dir.at(breaker));
  }
  return true;
}

export class LockTimeout extends Error {
  override readonly name = "LockTimeout";
}

/**
 * Take the lock `name` in `dir`, waiting up to `timeoutMs` for a live holder; a dead
 * holder's lock is broken. Returns the release function (idempotent). Throws a
 * {@link LockTimeout} naming the holder when it is still held after the wait.
 */
export function lockDirSync(dir: VerifiedDir, name: string, timeoutMs: number): () => void {
  const content = JSON.stringify({ pid: process.pid, started: ownStartTime() });
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (create(dir, name, content)) break;
    const seen = readLock(dir.at(name));
    if (seen !== null) {
      const dead = seen.holder === null ? Date.now() - seen.mtimeMs > TORN_MS : !alive(seen.holder);
      if (dead && breakDead(dir, name, seen.ino)) continue;
    }
    if (Date.now() > deadline) {
      throw new LockTimeout(
        `${dir.path} is locked by ${seen?.holder ? `process ${seen.holder.pid}` : "another process"} (${name})`,
      );
    }
    sleepSync(POLL_MS + Math.floor(Math.random() * POLL_MS));
  }
  const mine = readLock(dir.at(name))?.ino;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const now = readLock(dir.at(name));
    if (now !== null && now.ino === mine) tryUnlink(dir.at(name));
  };
}
