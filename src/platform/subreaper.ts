import { type Libc, linuxLibc } from "./libc.ts";

// <sys/prctl.h>, <sys/wait.h>
const PR_SET_CHILD_SUBREAPER = 36;
const WNOHANG = 1;

let state: Promise<Libc | null> | undefined;

/**
 * Make this process a child subreaper (Linux, Bun's FFI): a run's process that leaves its
 * group and whose parent exits comes here instead of init, and can be stopped with its run.
 * Elsewhere such a process escapes.
 */
export function becomeSubreaper(): Promise<boolean> {
  state ??= (async () => {
    const symbols = await linuxLibc();
    if (symbols === null || symbols.prctl(PR_SET_CHILD_SUBREAPER, 1n, 0n, 0n, 0n) !== 0)
      return null;
    libcNow = symbols;
    return symbols;
  })();
  return state.then((libc) => libc !== null);
}

export function isSubreaper(): boolean {
  return libcNow !== null;
}

let libcNow: Libc | null = null;

/** Bun waits only for the processes it started: without this an adopted one stays a zombie. */
export function reapAdopted(pid: number): void {
  libcNow?.waitpid(pid, null, WNOHANG);
}
