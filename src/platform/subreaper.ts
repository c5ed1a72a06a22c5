import { type Libc, linuxLibc } from "./libc.ts";

// <sys/prctl.h>, <sys/wait.h>
const PR_SET_CHILD_SUBREAPER = 36;
const WNOHANG = 1;

let state: Promise<Libc | null> | undefined;

/**
 * Make this process a child subreaper (Linux, under Bun: prctl through Bun's FFI): a
 * process a run or a plugin started that leaves its group (`setsid`) and whose parent
 * exits is then re-parented to this process instead of the system's init, so it can still
 * be found and stopped with its run (see process-tree.ts). Resolves whether it is one; on
 * other systems and runtimes (Deno, macOS) it is not, and such a process escapes. Done once.
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

/** True once becomeSubreaper has succeeded (never waits). */
export function isSubreaper(): boolean {
  return libcNow !== null;
}

/** The loaded libc once this process is a subreaper, else null. */
let libcNow: Libc | null = null;

/**
 * Collect the exit status of a process this one adopted as subreaper (Bun waits only for
 * the processes it started): without it, each adopted process that ends stays a zombie
 * for as long as this process lives. Only ever for a pid this process did not start.
 */
export function reapAdopted(pid: number): void {
  libcNow?.waitpid(pid, null, WNOHANG);
}
