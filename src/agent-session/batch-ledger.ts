import type { RunResult } from "../model/outcome.ts";

/**
 * A per-batch callback's session result, kept per file: each run covers only its files, and
 * results recorded out of order must not undo each other, so each file keeps its latest run.
 */
export type Ledger = Record<string, LedgerEntry>;
export type LedgerEntry = [startedAt: number, failed: 0 | 1, runId: string, status: string];

/** How long a pass is remembered to order results recorded late. */
const PASS_MEMORY_MS = 60_000;

/** Past this many files, the oldest passes are forgotten (failures never are). */
const MAX_FILES = 5000;

export function isFailingStatus(status: string): boolean {
  return status === "failed" || status === "timed_out";
}

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
  // A pass long before the newest run orders nothing: forgotten (a late failure is kept, and
  // the Stop check's re-run settles it).
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

/** Failing on the files whose latest run failed, else the newest run's result. */
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
