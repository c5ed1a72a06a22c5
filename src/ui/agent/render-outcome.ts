import { onlyPreexisting } from "../../diagnostics/agent-view.ts";
import type { Outcome, RunResult } from "../../model/outcome.ts";
import { isFailure, renderFailure, renderSuccess } from "../render-run.ts";
import { renderResync } from "./render-resync.ts";

export interface AgentReport {
  /** Failed blocking runs: the agent must act on these. */
  readonly failures: string[];
  readonly info: string[];
}

export function isEmptyReport(report: AgentReport): boolean {
  return report.failures.length === 0 && report.info.length === 0;
}

/**
 * Replaced and skipped runs say nothing (the newer run reports); a failed non-blocking run is
 * info, as is one whose every diagnostic was there before the edit.
 */
export function reportOutcome(outcome: Outcome, options: { tailLines: number }): AgentReport {
  const failures: string[] = [];
  const info: string[] = [];
  // A diagnostic two callbacks print (cargo check and clippy) is told once.
  const seen = new Set<string>();
  for (const run of reachedFirst(outcome.runs)) {
    if (isFailure(run)) {
      // One that stopped before the edited files were reached says nothing of them: it blocks,
      // unless its run again reached them.
      const blocks = run.blocking && (!onlyPreexisting(run.diagnostics) || unchecked(run));
      (blocks ? failures : info).push(renderFailure(run, { ...options, seen }));
      continue;
    }
    const success = renderSuccess(run);
    if (success !== null) info.push(success);
  }
  for (const resync of outcome.resyncs) info.push(renderResync(resync));
  return { failures, info };
}

function unchecked(run: RunResult): boolean {
  if ((run.unreached?.length ?? 0) === 0) return false;
  const again = run.reachedAgain?.status;
  return again !== "passed" && again !== "failed";
}

function reachedFirst(runs: readonly RunResult[]): RunResult[] {
  const again = new Map(runs.filter((r) => r.reachAgainOf).map((r) => [r.reachAgainOf?.runId, r]));
  const ordered: RunResult[] = [];
  for (const run of runs) {
    if (run.reachAgainOf && runs.some((r) => r.id === run.reachAgainOf?.runId)) continue;
    const rerun = again.get(run.id);
    if (rerun) ordered.push(rerun);
    ordered.push(run);
  }
  return ordered;
}

export function joinReport(report: AgentReport, extra: readonly string[] = []): string {
  return [...report.failures, ...report.info, ...extra].join("\n\n");
}
