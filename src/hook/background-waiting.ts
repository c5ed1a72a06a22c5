import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { processAlive } from "../engine/running.ts";
import { STATE, statePath } from "../util/state-layout.ts";

/** A spec not taken this long after it was written never will be (its process did not start). */
const START_GRACE_MS = 30_000;

export function runningSpecName(runId: string, pid: number): string {
  return `${runId}.${pid}.running`;
}

/** A spec not yet taken, or one a live process runs; other sessions and dead processes do not count. */
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
