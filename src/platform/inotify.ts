import { bun } from "./bun.ts";
import { startedPids } from "./start-process.ts";

/** Names touched in a set of directories since the watch began; null when events may be missing (queue overflow, a directory moved). */
export interface DirectoryWatch {
  touched(): Map<string, Set<string>> | null;
  close(): void;
}

// <sys/inotify.h>
const IN_MODIFY = 0x2;
const IN_ATTRIB = 0x4;
const IN_CLOSE_WRITE = 0x8;
const IN_MOVED_FROM = 0x40;
const IN_MOVED_TO = 0x80;
const IN_CREATE = 0x100;
const IN_DELETE = 0x200;
const IN_DELETE_SELF = 0x400;
const IN_MOVE_SELF = 0x800;
const IN_UNMOUNT = 0x2000;
const IN_Q_OVERFLOW = 0x4000;
const IN_IGNORED = 0x8000;
const IN_ONLYDIR = 0x1000000;
const IN_NONBLOCK = 0o4000;
const IN_CLOEXEC = 0o2000000;

const WATCHED =
  IN_MODIFY |
  IN_ATTRIB |
  IN_CLOSE_WRITE |
  IN_MOVED_FROM |
  IN_MOVED_TO |
  IN_CREATE |
  IN_DELETE |
  IN_DELETE_SELF |
  IN_MOVE_SELF |
  IN_ONLYDIR;
const LOST = IN_Q_OVERFLOW | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT | IN_IGNORED;

interface Libc {
  inotify_init1(flags: number): number;
  inotify_add_watch(fd: number, path: unknown, mask: number): number;
  read(fd: number, buf: unknown, count: number): number | bigint;
  close(fd: number): number;
}

interface Ffi {
  dlopen(
    path: string,
    symbols: Record<string, { args: string[]; returns: string }>,
  ): {
    symbols: Libc;
  };
  ptr(view: Uint8Array): unknown;
}

let loaded: Promise<{ libc: Libc; ptr: Ffi["ptr"] } | null> | undefined;

function inotify(): Promise<{ libc: Libc; ptr: Ffi["ptr"] } | null> {
  loaded ??= (async () => {
    if (bun === undefined || process.platform !== "linux") return null;
    try {
      // a variable, so bundlers and Deno leave this Bun-only module alone
      const specifier = "bun:ffi";
      const ffi = (await import(specifier)) as Ffi;
      const { symbols } = ffi.dlopen("libc.so.6", {
        inotify_init1: { args: ["i32"], returns: "i32" },
        inotify_add_watch: { args: ["i32", "ptr", "u32"], returns: "i32" },
        read: { args: ["i32", "ptr", "u64"], returns: "i64" },
        close: { args: ["i32"], returns: "i32" },
      });
      return { libc: symbols, ptr: ffi.ptr };
    } catch {
      return null;
    }
  })();
  return loaded;
}

/**
 * Watch `dirs` with one inotify instance, to learn later which files were written without a
 * stat each. The kernel queues an event before the write returns, so once the writers exited
 * everything is in the queue. Null where a watch cannot be added: the caller looks at every file.
 */
export async function watchDirectories(
  dirs: ReadonlyMap<string, string>,
): Promise<DirectoryWatch | null> {
  const api = await inotify();
  if (api === null) return null;
  const { libc, ptr } = api;
  const fd = libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) return null;
  const encoder = new TextEncoder();
  // two paths to one folder (a symlink) share a watch descriptor
  const byWatch = new Map<number, string[]>();
  for (const [key, dir] of dirs) {
    const wd = libc.inotify_add_watch(fd, ptr(encoder.encode(`${dir}\0`)), WATCHED);
    if (wd < 0) {
      libc.close(fd);
      return null;
    }
    const named = byWatch.get(wd);
    if (named) named.push(key);
    else byWatch.set(wd, [key]);
  }
  const touched = new Map<string, Set<string>>();
  let lost = false;
  let open = true;
  const buffer = new Uint8Array(64 * 1024);
  const view = new DataView(buffer.buffer);
  const decoder = new TextDecoder();
  const drain = (): void => {
    for (;;) {
      const got = Number(libc.read(fd, ptr(buffer), buffer.length));
      if (got <= 0) return; // -1: EAGAIN, the queue is empty
      // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
      for (let at = 0; at + 16 <= got; ) {
        const wd = view.getInt32(at, true);
        const mask = view.getUint32(at + 4, true);
        const len = view.getUint32(at + 12, true);
        if ((mask & LOST) !== 0) lost = true;
        else if (len > 0) {
          const raw = buffer.subarray(at + 16, at + 16 + len);
          const end = raw.indexOf(0);
          const name = decoder.decode(end === -1 ? raw : raw.subarray(0, end));
          for (const dir of byWatch.get(wd) ?? []) {
            let names = touched.get(dir);
            if (names === undefined) {
              names = new Set();
              touched.set(dir, names);
            }
            names.add(name);
          }
        }
        at += 16 + len;
      }
    }
  };
  return {
    touched() {
      if (open) drain();
      return lost ? null : touched;
    },
    close() {
      if (!open) return;
      open = false;
      handOff(fd);
      libc.close(fd);
    },
  };
}

/**
 * Closing an inotify instance's last descriptor waits for the kernel to retire its watches,
 * and so would this process's exit: a short-lived `sleep` that inherits it takes that wait.
 */
function handOff(fd: number): void {
  try {
    const sleeper = bun?.spawn(["sleep", "1"], {
      stdio: ["ignore", "ignore", "ignore", fd],
      detached: true,
    });
    if (sleeper === undefined) return;
    // ours: a subreaper scan must never collect its status
    startedPids.add(sleeper.pid);
    void sleeper.exited.then(() => startedPids.delete(sleeper.pid));
    sleeper.unref();
  } catch {
    // no sleep on PATH: pay for the close here
  }
}
