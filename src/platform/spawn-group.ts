import { HAS_PROCESS_GROUPS, noteSingleProcessStop, startFailureHint } from "./limits.ts";
import { groupHasLiveMember } from "./process-group.ts";
import type { RunOutput } from "./run-output.ts";
import { startProcess } from "./start-process.ts";
import { writeErr } from "./stdio.ts";
import { anyAlive, escapedProcesses, signalEach } from "./stop-tree.ts";
import { becomeSubreaper } from "./subreaper.ts";

export const KILL_GRACE_MS = 2000;

export interface SpawnRequest {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: string;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly output: RunOutput;
  readonly graceMs?: number;
  readonly onSpawn?: (pid: number) => void;
  /** Inherited by its processes: those that left the group and were adopted by this subreaper are found by it. */
  readonly marker?: string;
}

export interface SpawnResult {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly killed: boolean;
  readonly aborted: boolean;
  readonly spawnError: string | null;
}

/**
 * A whole number above 1 and not this process: a pid read back from a state file must never
 * make `kill(-pid)` reach our own group (0), every process (1), or ourselves.
 */
export function isRunGroup(pid: unknown): pid is number {
  return Number.isSafeInteger(pid) && (pid as number) > 1 && pid !== process.pid;
}

export function killGroup(pid: number, signal: NodeJS.Signals): boolean {
  if (!isRunGroup(pid)) return false;
  try {
    if (HAS_PROCESS_GROUPS) process.kill(-pid, signal);
    else {
      noteSingleProcessStop(writeErr);
      process.kill(pid, signal);
    }
    return true;
  } catch {
    return false;
  }
}

/** Zombies do not count: a group of them has nothing left to stop. EPERM: it lives, as another user. */
export function groupAlive(pid: number): boolean {
  if (!isRunGroup(pid)) return false;
  try {
    process.kill(HAS_PROCESS_GROUPS ? -pid : pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return groupHasLiveMember(pid) ?? true;
}

/** Stop a run's group and what left it: SIGTERM, the grace, then SIGKILL (true when needed). Cheap when nothing is left. */
export async function reapGroup(
  pid: number,
  graceMs: number,
  marker: string | null = null,
  everywhere = false,
): Promise<boolean> {
  let escaped = escapedProcesses(pid, marker, everywhere);
  const group = killGroup(pid, "SIGTERM");
  if (!signalEach(escaped, "SIGTERM") && !group) return false;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    if (!groupAlive(pid) && !anyAlive(escaped)) return false;
  }
  escaped = [...new Set([...escaped, ...escapedProcesses(pid, marker, everywhere)])];
  const killed = signalEach(escaped, "SIGKILL");
  return killGroup(pid, "SIGKILL") || killed;
}

function signalRun(pid: number, marker: string | null, signal: NodeJS.Signals): boolean {
  const escaped = escapedProcesses(pid, marker);
  const group = killGroup(pid, signal);
  return signalEach(escaped, signal) || group;
}

/** Run one process as its own group's leader: on timeout, abort or its exit, what is left of the group is stopped. */
export async function spawnGroup(req: SpawnRequest): Promise<SpawnResult> {
  // Orphans of the run come to this process, where they can be found; before the child
  // starts, as a quick `setsid x &; exit` could orphan x before a later prctl.
  await becomeSubreaper();
  const marker = req.marker ?? null;
  let timedOut = false;
  let killed = false;
  let aborted = false;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  const grace = req.graceMs ?? KILL_GRACE_MS;

  // Straight into the log when nobody listens line by line: no pipes to pump.
  const logFd = req.output.takeDirectFd();
  const child = startProcess(req.command, req.args, {
    cwd: req.cwd,
    env: req.env,
    detached: true,
    stdin: req.stdin,
    ...(logFd === null
      ? { onOutput: (chunk: Uint8Array) => req.output.write(chunk) }
      : { outputFd: logFd }),
  });
  const pid = child.pid;
  if (pid !== undefined) req.onSpawn?.(pid);

  const stop = (): void => {
    if (pid === undefined || killTimer !== undefined) return;
    signalRun(pid, marker, "SIGTERM");
    killTimer = setTimeout(() => {
      if (signalRun(pid, marker, "SIGKILL")) killed = true;
    }, grace);
    killTimer.unref?.();
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, req.timeoutMs);
  const onAbort = (): void => {
    aborted = true;
    stop();
  };
  if (req.signal.aborted) onAbort();
  else req.signal.addEventListener("abort", onAbort, { once: true });

  return child.exited.then(async (end) => {
    clearTimeout(timer);
    req.signal.removeEventListener("abort", onAbort);
    if (end.error !== null) {
      clearTimeout(killTimer);
      const spawnError = `${end.error.code}: ${end.error.message}${startFailureHint(req.command, end.error.code)}`;
      return { exitCode: null, signal: null, spawnError, timedOut, killed, aborted };
    }
    // Do not wait on pipes a grandchild still holds.
    let drain: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      child.outputClosed,
      new Promise((resolve) => {
        drain = setTimeout(resolve, 50);
      }),
    ]);
    clearTimeout(drain);
    child.stopReading();
    clearTimeout(killTimer);
    if (killTimer !== undefined && !killed && end.signal === "SIGKILL") killed = true;
    // Leftovers in the group (a backgrounded or SIGTERM-deaf grandchild) end with the run.
    const reaped = pid === undefined ? false : await reapGroup(pid, grace, marker);
    return {
      exitCode: end.code,
      signal: end.signal,
      spawnError: null,
      timedOut,
      killed: killed || reaped,
      aborted,
    };
  });
}
