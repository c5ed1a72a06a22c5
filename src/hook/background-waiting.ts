import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { processAlive } from "../engine/running.ts";
import { STATE, statePath } from "../util/state-layout.ts";

/**
 * A spec whose process has not taken it this long after it was written never will (its
 * process did not start): it is no longer waited for.
 */
const START_GRACE_MS = 30_000;

/** The name a background spec is moved to while its process runs it: `<run id>.<pid>.running`. */
export function runningSpecName(runId: string, pid: number): string {
  return `${runId}.${pid}.running`;
}

/**
 * True while background runs of `session` are still to report: a spec not yet taken by its
 * process (for a short while after it was written), or one a live process is running.
 * Specs of other sessions, of dead processes, and anything unreadable do not count.
 */
export function backgroundInFlight(root: string, session: string, now = Date.now()): boolean {
  const dir = statePath(root, STATE.background);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  for (const name of names) {
    const running = /^[^.]+\.(\d+)\.running$/.exec(name);
    const waiting = name.endsWith(".json") && !name.startsWith(".");
    if (running === null && !waiting) continue;
    try {
      const path = join(dir, name);
      const stat = statSync(path);
      // only files cpilot wrote: a FIFO or a device would hold the read
      if (!stat.isFile()) continue;
      if (waiting && now - stat.mtimeMs > START_GRACE_MS) continue;
      if (running !== null && !processAlive(Number(running[1]))) continue;
      const spec = JSON.parse(readFileSync(path, "utf8")) as { session?: unknown };
      if (spec.session === session) return true;
    } catch {
      // taken or finished while being read
    }
  }
  return false;
}
