// An exclusive lock across processes on a folder, for a read-modify-write in it. It names its
// holder's pid and start time, so a dead holder is told from a live one; breaking it goes
// through a second short lock, so two waiters never both break it.
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

export function tryUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

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
 * Make `lock` in one step; false while it exists. A symlink whose target is the holder (as
 * Emacs's): whole at once, needing no data block on a full disk. Else an exclusive file.
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

/** Remove `lock` if it is still the dead holder's (`ino`); false while another breaker is at it. */
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

/** Wait up to `timeoutMs` for a live holder; a dead one's lock is broken. Throws {@link LockTimeout} naming the holder. */
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
