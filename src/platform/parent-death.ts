import { linuxLibc } from "./libc.ts";

/** Set by a parent on a child that must not outlive it; its value is the parent's pid. */
export const PARENT_PID_ENV = "CPILOT_PARENT_PID";

// <sys/prctl.h>, <signal.h>
const PR_SET_PDEATHSIG = 1;
const SIGKILL = 9;
/** How often the fallback looks whether the parent is still there. */
const POLL_MS = 1_000;

/** The environment entry that makes a child started with it {@link dieWithParent}. */
export function parentPidEnv(): Record<string, string> {
  return { [PARENT_PID_ENV]: String(process.pid) };
}

/**
 * Make this process end when the parent that started it (with {@link parentPidEnv}) dies,
 * even SIGKILLed, even while the user's code holds the thread (a config that loops): on
 * Linux under Bun the kernel sends SIGKILL (prctl PR_SET_PDEATHSIG); a parent that died
 * before that was set is seen by its pid having changed. Elsewhere (macOS, Deno, musl) a
 * timer looks every second, which catches a config that awaits for ever but not one that
 * loops: that one runs on until its own deadline-less end. Call first, before user code.
 */
export async function dieWithParent(): Promise<void> {
  const expected = Number(process.env[PARENT_PID_ENV]);
  delete process.env[PARENT_PID_ENV]; // not for the config's code or the callbacks
  if (!Number.isInteger(expected) || expected <= 0) return;
  const libc = await linuxLibc();
  if (libc !== null && libc.prctl(PR_SET_PDEATHSIG, BigInt(SIGKILL), 0n, 0n, 0n) === 0) {
    if (libc.getppid() !== expected) process.exit(1);
    return;
  }
  if (process.ppid !== expected) process.exit(1);
  setInterval(() => {
    if (process.ppid !== expected) process.exit(1);
  }, POLL_MS).unref();
}
