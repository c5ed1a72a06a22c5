import type { RunLogEntry } from "../agent-session/run-log.ts";
import { filesLabel } from "./render-run.ts";

/**
 * What `cpilot run` prints at the end: counts by status, then each failed run. "" when nothing ran.
 *
 * @example
 * // cpilot: 5 callback runs this session: 4 passed, 1 failed
 */
export function renderRunSummary(entries: readonly RunLogEntry[]): string {
  if (entries.length === 0) return "";
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.status, (counts.get(e.status) ?? 0) + 1);
  const order = ["passed", "failed", "timed_out", "silent", "replaced", "skipped"];
  const parts = [...counts.entries()]
    .sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]))
    .map(([status, n]) => `${n} ${status.replace("_", " ")}`);
  const lines = [
    `cpilot: ${entries.length} callback run${entries.length === 1 ? "" : "s"} this session: ${parts.join(", ")}`,
  ];
  for (const e of entries) {
    if (e.status !== "failed" && e.status !== "timed_out") continue;
    const where = e.blocking ? "" : " (background)";
    lines.push(
      `  ✗ ${e.callback}${where} on ${filesLabel(e.files)}: ${e.summary} (cpilot logs ${e.id})`,
    );
  }
  return lines.join("\n");
}
