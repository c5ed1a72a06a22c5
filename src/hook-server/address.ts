// Where this user's hook server for this cpilot binary listens (in the private runtime
// folder, src/platform/runtime-dir.ts). Cheap on purpose: every hook call computes it
// before anything else.
import { type Stats, statSync } from "node:fs";
import { join } from "node:path";
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
