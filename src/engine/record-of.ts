import type { StoredRun } from "./runs-store.ts";

/** Most diagnostics a run's record keeps; the reply and `check` use the run's own list. */
const RECORD_DIAGNOSTICS = 500;

/**
 * A finished run as its record keeps it: the first RECORD_DIAGNOSTICS diagnostics and how
 * many there were. A dense output's thousands of diagnostics would make every hook call
 * write a large record, and the next run's session result read it again; nothing reads a
 * record's diagnostics past the first few (the log has them all).
 */
export function recordOf(run: StoredRun): StoredRun {
  const all = run.diagnostics;
  if (all === undefined || all.length <= RECORD_DIAGNOSTICS) return run;
  return {
    ...run,
    diagnostics: all.slice(0, RECORD_DIAGNOSTICS),
    diagnosticsTotal: all.length,
  };
}
