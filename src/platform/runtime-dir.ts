import { lstatSync, mkdirSync, type Stats } from "node:fs";
import { join, resolve } from "node:path";

/**
 * The user's private folder for what must be neither in a project nor reachable by others:
 * `CPILOT_RUNTIME_DIR`, `$XDG_RUNTIME_DIR/cpilot`, else `$TMPDIR/cpilot-<uid>`. It must be ours
 * and mode 700, or there is none: anyone who could write there could choose this user's callbacks.
 */
export function runtimeDir(env: NodeJS.ProcessEnv): string | null {
  const uid = process.getuid?.();
  if (uid === undefined) return null;
  const dir = runtimeDirPath(env, uid);
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

/** Where it is, made or not. */
export function runtimeDirPath(env: NodeJS.ProcessEnv, uid = process.getuid?.() ?? 0): string {
  return resolve(
    env.CPILOT_RUNTIME_DIR ||
      (env.XDG_RUNTIME_DIR
        ? join(env.XDG_RUNTIME_DIR, "cpilot")
        : join(env.TMPDIR || "/tmp", `cpilot-${uid}`)),
  );
}

function statOrNull(path: string): Stats | null {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** Under it: the agent sessions' turn records (src/hook/turn-record-store.ts). */
export const RECORDS = "turn-records";

/** Where turn records live; null when there is no private folder. */
export function recordsHome(env: NodeJS.ProcessEnv): string | null {
  const base = runtimeDir(env);
  return base === null ? null : join(base, RECORDS);
}
