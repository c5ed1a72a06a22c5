import { join } from "node:path";
import type { Outcome } from "../model/outcome.ts";
import { renderResync } from "../ui/agent/render-resync.ts";
import { filesLabel, isFailure, renderFailure, renderSuccess } from "../ui/render-run.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { stateDir } from "../util/state-dir.ts";
import { STATE, STATE_DIR } from "../util/state-layout.ts";

export const RESULTS_FILE = join(STATE_DIR, STATE.lastResults);

export function renderResults(outcome: Outcome, options: { at: Date; tailLines: number }): string {
  const failed = outcome.runs.filter(isFailure);
  const files = outcome.batch.files.map((f) => f.path);
  const status = failed.length > 0 ? `FAILED: ${failed.map((r) => r.callback).join(", ")}` : "OK";
  const lines = [
    "# cpilot: results of the last checks",
    "",
    `status: ${status}`,
    `at: ${options.at.toISOString()}`,
    `files: ${filesLabel(files)}`,
    "",
  ];
  if (outcome.runs.length === 0) lines.push("No callback matched these files.", "");
  for (const run of failed)
    lines.push("```", renderFailure(run, { tailLines: options.tailLines }), "```", "");
  for (const run of outcome.runs) {
    if (isFailure(run)) continue;
    const success =
      renderSuccess(run) ?? `✓ '${run.callback}' ${run.status} on ${filesLabel(run.files)}`;
    lines.push(`- ${success}`);
  }
  if (outcome.resyncs.length > 0) {
    lines.push("", "## Files the callbacks rewrote (re-read them before editing)", "");
    for (const resync of outcome.resyncs) lines.push("```", renderResync(resync), "```", "");
  }
  for (const note of outcome.notes) lines.push(`- note: ${note}`);
  return `${lines.join("\n").trimEnd()}\n`;
}

/** Atomic: a reader sees the old results or the new. */
export function writeResults(root: string, text: string): string {
  const path = join(root, RESULTS_FILE);
  stateDir(root);
  writeFileAtomic(path, text, { durable: false });
  return path;
}
