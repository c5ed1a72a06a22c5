import type { StoredRun } from "./runs-store.ts";

const RECORD_DIAGNOSTICS = 500;

/** A finished run as its record keeps it: the first RECORD_DIAGNOSTICS diagnostics (the log has them all) and their count. */
export function recordOf(run: StoredRun): StoredRun {
  const all = run.diagnostics;
  if (all === undefined || all.length <= RECORD_DIAGNOSTICS) return run;
  return {
    ...run,
    diagnostics: all.slice(0, RECORD_DIAGNOSTICS),
    diagnosticsTotal: all.length,
  };
}
