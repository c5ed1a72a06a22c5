import {
  childrenOf,
  descendantsOf,
  environHasSettled,
  isZombie,
  processesWithEnv,
} from "./process-tree.ts";
import { startedPids } from "./start-process.ts";
import { isSubreaper, reapAdopted } from "./subreaper.ts";

/**
 * A run's processes that left its group (`setsid` included): those below its live leader, and
 * those adopted here carrying its `marker`. `everywhere`: search every process (slow: a run
 * whose host died).
 */
export function escapedProcesses(
  leader: number,
  marker: string | null,
  everywhere = false,
): number[] {
  const roots = [leader];
  if (marker !== null && isSubreaper()) {
    for (const child of childrenOf(process.pid)) {
      if (startedPids.has(child)) continue;
      if (isZombie(child))
        reapAdopted(child); // ended: collect it, or it stays a zombie
      else if (environHasSettled(child, marker)) roots.push(child);
    }
  }
  if (marker !== null && everywhere) roots.push(...processesWithEnv(marker));
  const found = new Set([...roots.slice(1), ...descendantsOf(roots)]);
  found.delete(leader);
  found.delete(process.pid);
  return [...found].filter((pid) => pid > 1);
}

export function signalEach(pids: readonly number[], signal: NodeJS.Signals): boolean {
  let any = false;
  for (const pid of pids) {
    if (pid <= 1 || pid === process.pid) continue;
    try {
      process.kill(pid, signal);
      any = true;
    } catch {
      // gone already
    }
  }
  return any;
}

export function anyAlive(pids: readonly number[]): boolean {
  let alive = false;
  for (const pid of pids) {
    try {
      process.kill(pid, 0);
    } catch {
      continue;
    }
    if (isZombie(pid)) {
      if (!startedPids.has(pid)) reapAdopted(pid);
      continue;
    }
    alive = true;
  }
  return alive;
}
