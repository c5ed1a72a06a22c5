import { linuxLibc } from "./libc.ts";

/** Set on a child that must not outlive its parent: the parent's pid. */
export const PARENT_PID_ENV = "CPILOT_PARENT_PID";

// <sys/prctl.h>, <signal.h>
const PR_SET_PDEATHSIG = 1;
const SIGKILL = 9;
const POLL_MS = 1_000;

export function parentPidEnv(): Record<string, string> {
  return { [PARENT_PID_ENV]: String(process.pid) };
}

/**
 * End this process when the parent that started it dies, even while user code holds the thread:
 * on Linux under Bun the kernel sends SIGKILL (PR_SET_PDEATHSIG). Elsewhere a timer looks every
 * second, which misses a config that loops. Call before user code.
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
