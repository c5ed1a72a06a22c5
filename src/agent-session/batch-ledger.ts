import type { RunResult } from "../model/outcome.ts";

/**
 * For a per-batch callback, the session's result is kept per file: each run covers only
 * the files it was given. A pass on b.txt says nothing about a.txt that failed before, and
 * results recorded out of order (two hooks finishing together) must not undo each other:
 * each file keeps its latest run, by start time.
 */
export type Ledger = Record<string, LedgerEntry>;
/** The file's latest run: when it started, whether it failed, its id and status. */
export type LedgerEntry = [startedAt: number, failed: 0 | 1, runId: string, status: string];

/** How long a pass is remembered to order results recorded late (hooks finishing together). */
const PASS_MEMORY_MS = 60_000;

/** Past this many files, the oldest passes are forgotten (failures never are). */
const MAX_FILES = 5000;

export function isFailingStatus(status: string): boolean {
  return status === "failed" || status === "timed_out";
}

/** The ledger after `run` (started at `startedAt`), whatever order runs are recorded in. */
export function mergeIntoLedger(
  ledger: Ledger,
  run: Pick<RunResult, "id" | "status" | "files">,
  startedAt: number,
): Ledger {
  const next: Ledger = { ...ledger };
  const failed = isFailingStatus(run.status) ? 1 : 0;
  for (const file of run.files) {
    const seen = next[file];
    if (seen === undefined || seen[0] <= startedAt)
      next[file] = [startedAt, failed, run.id, run.status];
  }
  // A pass long before the newest run no longer orders anything: forgotten (a failure
  // recorded that late is kept, and the Stop check's re-run settles it).
  const newest = Math.max(...Object.values(next).map((e) => e[0]));
  for (const [file, e] of Object.entries(next)) {
    if (e[1] === 0 && e[0] < newest - PASS_MEMORY_MS) delete next[file];
  }
  const names = Object.keys(next);
  if (names.length > MAX_FILES) {
    const passes = names
      .filter((n) => next[n]?.[1] === 0)
      .sort((a, b) => (next[a]?.[0] ?? 0) - (next[b]?.[0] ?? 0));
    for (const n of passes.slice(0, names.length - MAX_FILES)) delete next[n];
  }
  return next;
}

/**
 * What the ledger says as a result: failing, on the files whose latest run failed (with the
 * newest failing run's id and status), or else the newest run's.
 */
export function ledgerSummary(ledger: Ledger): {
  files: string[];
  runId: string;
  status: string;
  startedAt: number;
} {
  const entries = Object.entries(ledger);
  const failing = entries.filter(([, e]) => e[1] === 1);
  const pool = failing.length > 0 ? failing : entries;
  const newest = pool.reduce((a, b) => (b[1][0] > a[1][0] ? b : a));
  const latestRun = pool.filter(([, e]) => e[2] === newest[1][2]);
  return {
    files: (failing.length > 0 ? failing : latestRun).map(([f]) => f).sort(),
    runId: newest[1][2],
    status: newest[1][3],
    startedAt: Math.max(...entries.map(([, e]) => e[0])),
  };
}

/** A ledger read back from a file: only well-formed entries. */
export function asLedger(v: unknown): Ledger | null {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const out: Ledger = {};
  for (const [file, e] of Object.entries(v)) {
    if (
      Array.isArray(e) &&
      typeof e[0] === "number" &&
      (e[1] === 0 || e[1] === 1) &&
      typeof e[2] === "string" &&
      typeof e[3] === "string"
    ) {
      out[file] = [e[0], e[1], e[2], e[3]];
    }
  }
  return out;
}
