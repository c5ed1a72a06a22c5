// Where this user's hook server for this cpilot binary listens. Cheap on purpose: every
// hook call computes it before anything else.
import { lstatSync, mkdirSync, type Stats, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { VERSION } from "../version.ts";

/** Unix socket paths longer than this do not fit `sockaddr_un` (108 bytes with the NUL). */
const MAX_SOCKET_PATH = 100;

/**
 * Is the hook server wanted? Only when asked for (`CPILOT_HOOK_SERVER=1`), and only for the
 * compiled binary. Off by default: it is a process that outlives the call, and a call made
 * inside an agent's sandbox would reach a server that may have been started outside it.
 */
export function hookServerWanted(env: NodeJS.ProcessEnv, compiled: boolean): boolean {
  const flag = env.CPILOT_HOOK_SERVER;
  return compiled && (flag === "1" || flag === "true" || flag === "on");
}

/**
 * The private folder the sockets live in: `CPILOT_RUNTIME_DIR`, else `$XDG_RUNTIME_DIR/cpilot`,
 * else `$TMPDIR/cpilot-<uid>`. It must be ours and closed to others (mode 700), or there is
 * no server: anyone who could reach the socket could run this user's callbacks.
 */
export function runtimeDir(env: NodeJS.ProcessEnv): string | null {
  const uid = process.getuid?.();
  if (uid === undefined) return null;
  const dir = resolve(
    env.CPILOT_RUNTIME_DIR ||
      (env.XDG_RUNTIME_DIR
        ? join(env.XDG_RUNTIME_DIR, "cpilot")
        : join(env.TMPDIR || "/tmp", `cpilot-${uid}`)),
  );
  try {
    let st = statOrNull(dir);
    if (st === null) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      st = lstatSync(dir);
    }
    if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o077) !== 0) return null;
  } catch {
    return null;
  }
  return dir;
}

function statOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/**
 * The socket of the server for exactly this binary file: its version, device, inode, size
 * and mtime make the name, so an upgraded or rebuilt cpilot never talks to an old server.
 */
export function socketPath(dir: string, execPath = process.execPath): string | null {
  let st: Stats;
  try {
    st = statSync(execPath);
  } catch {
    return null;
  }
  const build = [st.dev, st.ino, st.size, Math.floor(st.mtimeMs)].map((n) => n.toString(36));
  const path = join(dir, `hook-${VERSION}-${build.join("-")}.sock`);
  return path.length <= MAX_SOCKET_PATH ? path : null;
}
