import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { isOwnStateDir } from "../util/state-dir.ts";
import type { RunResult } from "./outcome.ts";

/** Where run logs live: `.cpilot/runs/<id>.log` beside `<id>.json`. */
export function runsDir(root: string): string {
  return join(root, ".cpilot", "runs");
}

/** Create the runs folder and return the log path for a run. */
export function prepareLog(root: string, runId: string): string {
  const dir = runsDir(root);
  mkdirSync(dir, { recursive: true });
  return join(dir, `${runId}.log`);
}

/** Record a finished run next to its log, for `cpilot logs` and later deliveries. */
export function saveRunRecord(root: string, run: RunResult & { startedAt: number }): void {
  writeFileAtomic(join(runsDir(root), `${run.id}.json`), `${JSON.stringify(run)}\n`, {
    durable: false,
  });
}

export type StoredRun = RunResult & { startedAt: number };

/** Recent runs, newest first (ids sort by start time). */
export function listRuns(root: string, limit = 20): StoredRun[] {
  let names: string[];
  try {
    names = readdirSync(runsDir(root)).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  names.sort().reverse();
  const runs: StoredRun[] = [];
  for (const name of names.slice(0, limit)) {
    const run = readRun(root, name.slice(0, -5));
    if (run) runs.push(run);
  }
  return runs;
}

/** One stored run record, or null. */
export function readRun(root: string, runId: string): StoredRun | null {
  if (!/^[a-z0-9-]+$/.test(runId)) return null;
  try {
    return JSON.parse(readFileSync(join(runsDir(root), `${runId}.json`), "utf8")) as StoredRun;
  } catch {
    return null;
  }
}

/** A run's log or record: `mhx8k2p1-a3f9c1.log` (see newRunId). */
const RUN_FILE = /^[0-9a-z]+-[0-9a-f]+\.(?:log|json)$/;

/** Keep only the newest `keep` runs; called after a batch, cheap when under the limit. */
export function pruneRuns(root: string, keep: number): void {
  if (!isOwnStateDir(root, "runs")) return; // never delete through a symlink
  let names: string[];
  try {
    names = readdirSync(runsDir(root));
  } catch {
    return;
  }
  // Prune in slices so the common case reads the folder and does nothing more: each run
  // has two files (a log and a record), so few enough names cannot be too many runs.
  const slack = Math.ceil(keep / 10);
  if (names.length <= 2 * (keep + slack)) return;
  // Only what cpilot wrote: `<run id>.log` and `<run id>.json`.
  const ids = [
    ...new Set(names.filter((n) => RUN_FILE.test(n)).map((n) => n.replace(/\.(log|json)$/, ""))),
  ].sort();
  if (ids.length <= keep + slack) return;
  for (const id of ids.slice(0, ids.length - keep)) {
    rmSync(join(runsDir(root), `${id}.log`), { force: true });
    rmSync(join(runsDir(root), `${id}.json`), { force: true });
  }
}
