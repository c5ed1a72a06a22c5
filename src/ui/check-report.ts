import type { Outcome } from "../model/outcome.ts";
import { renderResyncLine } from "./run-line.ts";
import { formatDuration, paint, say } from "./style.ts";

export function toJson(outcome: Outcome) {
  return {
    ok: outcome.ok,
    runs: outcome.runs.map((r) => ({
      id: r.id,
      callback: r.callback,
      files: r.files,
      status: r.status,
      blocking: r.blocking,
      exitCode: r.exitCode,
      signal: r.signal,
      durationMs: r.durationMs,
      logPath: r.logPath,
      summary: r.summary,
      tail: r.tail,
      diagnostics: r.diagnostics ?? [],
      // changed files a failed run stopped before (or may have left out): not checked
      ...(r.unreached ? { unreached: r.unreached } : {}),
      ...(r.cached ? { fromCache: true, cachedAt: new Date(r.cached.at).toISOString() } : {}),
    })),
    resyncs: outcome.resyncs.map((r) => ({ path: r.path, diff: r.diff })),
    notes: outcome.notes,
  };
}

export function printSummary(
  outcome: Outcome,
  fileCount: number,
  ms: number,
  color: boolean,
): void {
  for (const resync of outcome.resyncs) say(renderResyncLine(resync, color));
  for (const note of outcome.notes) say(paint(note, "yellow", color));
  const failed = outcome.runs.filter((r) => r.status === "failed" || r.status === "timed_out");
  const files = `${fileCount} file${fileCount === 1 ? "" : "s"}`;
  if (outcome.runs.length === 0) {
    say(paint(`cpilot: no callback matches ${files}`, "gray", color));
    return;
  }
  const runs = `${outcome.runs.length} run${outcome.runs.length === 1 ? "" : "s"}`;
  // Every run passed, yet the check did not: the last line must not read as a pass.
  const notPassed = outcome.ok ? "" : ", but the check failed (see above)";
  const line =
    failed.length === 0
      ? paint(
          `cpilot: ${endedWell(outcome.runs)} on ${files} in ${formatDuration(ms)}${notPassed}`,
          outcome.ok ? "green" : "yellow", // a blocking run that was stopped did not pass
          color,
        )
      : paint(
          `cpilot: ${failed.length} of ${runs} failed on ${files} in ${formatDuration(ms)}`,
          "red",
          color,
        );
  say(line);
}

/** "3 runs passed", or "2 runs passed, 1 stopped, 1 replaced"; a silent run passed. */
function endedWell(runs: Outcome["runs"]): string {
  const count = (statuses: readonly string[]) =>
    runs.filter((r) => statuses.includes(r.status)).length;
  const passed = count(["passed", "silent"]);
  const parts = [`${passed} run${passed === 1 ? "" : "s"} passed`];
  const stopped = count(["skipped"]);
  if (stopped > 0) parts.push(`${stopped} stopped`);
  const replaced = count(["replaced"]);
  if (replaced > 0) parts.push(`${replaced} replaced`);
  const started = count(["started"]);
  if (started > 0) parts.push(`${started} still running`);
  return parts.join(", ");
}
