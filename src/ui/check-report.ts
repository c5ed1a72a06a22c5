import type { Outcome } from "../engine/outcome.ts";
import { renderResyncLine } from "./run-line.ts";
import { formatDuration, paint, say } from "./style.ts";

/** The `--json` document of `cpilot check`. */
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
    })),
    resyncs: outcome.resyncs.map((r) => ({ path: r.path, diff: r.diff })),
    notes: outcome.notes,
  };
}

/** The closing lines of `cpilot check` for people (stderr). */
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
  const line =
    failed.length === 0
      ? paint(`cpilot: ${runs} passed on ${files} in ${formatDuration(ms)}`, "green", color)
      : paint(
          `cpilot: ${failed.length} of ${runs} failed on ${files} in ${formatDuration(ms)}`,
          "red",
          color,
        );
  say(line);
}
