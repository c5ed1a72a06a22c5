/**
 * Finds processes that carry a marker in their environment. Claude Code starts each hook
 * in its own process group, so killing the CLI's group does not reach a hook's children;
 * the marker (inherited by every descendant) does.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Env var set on each CLI run; its value is unique per run. */
export const RUN_MARKER = "CPILOT_E2E_RUN";

/** Pids (other than ours) whose environment holds `RUN_MARKER=<id>`. Linux only; [] elsewhere. */
export function findMarked(id: string): number[] {
  const needle = `${RUN_MARKER}=${id}`;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, "latin1").split("\0");
      if (environ.includes(needle) && !isZombie(pid)) pids.push(pid);
    } catch {
      // Gone already, or not ours to read.
    }
  }
  return pids;
}

/** SIGKILLs every live process marked with `id`; returns how many it signalled. */
export function killMarked(id: string): number {
  const pids = findMarked(id);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Exited between the scan and the signal.
    }
  }
  return pids.length;
}

/** True when the process no longer runs (exited, or a zombie waiting to be reaped). */
export function isGone(pid: number): boolean {
  try {
    return isZombie(pid);
  } catch {
    return true;
  }
}

function isZombie(pid: number): boolean {
  const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  // Field 3, after the parenthesised command name (which may itself contain spaces).
  return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z";
}
