import type { Resync, RunResult } from "../model/outcome.ts";
import { failureBody } from "./render-run.ts";
import { type Color, formatDuration, paint } from "./style.ts";

const MARKS: Record<RunResult["status"], [string, Color]> = {
  passed: ["✓", "green"],
  silent: ["·", "gray"],
  failed: ["✗", "red"],
  timed_out: ["✗", "red"],
  skipped: ["-", "gray"],
  replaced: ["↻", "yellow"],
  started: ["…", "blue"],
};

function fileLabel(files: readonly string[]): string {
  if (files.length === 1) return JSON.stringify(files[0]).slice(1, -1);
  return `${files.length} files`;
}

/** A finished run as terminal lines; on failure its diagnostics as an agent reads them (pass one `seen` to every call). */
export function renderRunLines(
  run: RunResult,
  color: boolean,
  options: { tailLines: number; seen?: Set<string> },
): string[] {
  const [mark, tint] = MARKS[run.status];
  const when = run.cached ? "from cache" : formatDuration(run.durationMs);
  const head = `${paint(mark, tint, color)} ${paint(run.callback, "bold", color)} ${paint(`(${fileLabel(run.files)}, ${when})`, "gray", color)}`;
  const bad = run.status === "failed" || run.status === "timed_out";
  if (!bad) {
    const extra =
      run.status === "passed"
        ? run.successMessage && run.successMessage !== "silent"
          ? ` ${run.successMessage}`
          : ""
        : ` ${run.summary}`;
    return [`${head}${extra}${run.blocking ? "" : paint(" (background)", "gray", color)}`];
  }
  const lines = [
    `${head} ${paint(run.summary, tint, color)}${run.blocking ? "" : paint(" (non-blocking)", "gray", color)}`,
  ];
  const body = failureBody(run, {
    tailLines: options.tailLines,
    ownFiles: "the checked files",
    since: "since HEAD",
    ...(options.seen ? { seen: options.seen } : {}),
  });
  for (const line of body) lines.push(`    ${line}`);
  lines.push(paint(`    full log: cpilot logs ${run.id}`, "gray", color));
  return lines;
}

export function renderResyncLine(resync: Resync, color: boolean): string {
  let added = 0;
  let removed = 0;
  for (const line of resync.diff.split("\n")) {
    if (line.startsWith("+") && !line.startsWith("+++")) added++;
    else if (line.startsWith("-") && !line.startsWith("---")) removed++;
  }
  const gone = resync.newText === null && resync.diff.includes("\n+++ /dev/null\n");
  // A large batch's resync has no hunks (only "re-read it"): no line counts to give.
  const counts = resync.diff.includes("\n@@")
    ? ` ${paint(`(+${added} -${removed})`, "gray", color)}`
    : "";
  return `${paint("~", "yellow", color)} a callback ${gone ? "deleted" : "rewrote"} ${resync.path}${counts}`;
}
