import { listRunning, type RunningRecord, unregisterRunning } from "../engine/running.ts";
import { groupAlive, killGroup } from "../platform/spawn-group.ts";

const GONE_MS = 5000;

/**
 * Kill (SIGKILL) what still runs of the runs `hostPid` started: a fixer that read the staged
 * version would write over the work about to go back. A half-written file is kept aside.
 */
function killRuns(root: string, hostPid: number, started: number | null): RunningRecord[] {
  const left = listRunning(root).filter(
    (r) =>
      r.hostPid === hostPid &&
      (r.hostStarted === undefined ||
        r.hostStarted === null ||
        started === null ||
        r.hostStarted === started),
  );
  for (const r of left) killGroup(r.pid, "SIGKILL");
  return left;
}

function forget(root: string, runs: readonly RunningRecord[]): void {
  for (const r of runs) unregisterRunning(root, r.runId);
}

export async function stopLeftRuns(
  root: string,
  hostPid: number,
  started: number | null,
): Promise<void> {
  const left = killRuns(root, hostPid, started);
  const deadline = Date.now() + GONE_MS;
  while (left.some((r) => groupAlive(r.pid)) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  forget(root, left);
}

/** For a check on its way out (an exit handler): no event loop. */
export function stopLeftRunsNow(root: string, hostPid: number, started: number | null): void {
  const left = killRuns(root, hostPid, started);
  const tick = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + GONE_MS;
  while (left.some((r) => groupAlive(r.pid)) && Date.now() < deadline) Atomics.wait(tick, 0, 0, 20);
  forget(root, left);
}
