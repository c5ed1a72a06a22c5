import type { Outcome } from "../model/outcome.ts";
import { boundedDiff, renderRun } from "../ui/mcp/render.ts";
import { toAgentSpace } from "./text-file.ts";

/** Each file a run rewrote is compared with what the agent was last told (`known`, updated here), so a change is not told twice. */
export function backgroundNotice(
  outcome: Outcome,
  known: Map<string, string>,
): { text: string; failing: boolean } | null {
  const lines: string[] = [];
  for (const run of outcome.runs) lines.push(...renderRun(run));
  for (const resync of outcome.resyncs) {
    const path = resync.path;
    if (resync.newText === null) {
      lines.push(`A background callback deleted ${path}.`);
      known.delete(path);
      continue;
    }
    const now = toAgentSpace(resync.newText).text;
    const before =
      known.get(path) ?? (resync.oldText === null ? null : toAgentSpace(resync.oldText).text);
    if (before === now) continue;
    known.set(path, now);
    if (before === null) {
      lines.push(`A background callback changed ${path}: re-read it before editing it.`);
    } else {
      lines.push(
        `A background callback rewrote ${path}; re-read it before editing it, or use this diff:`,
        boundedDiff(path, before, now),
      );
    }
  }
  lines.push(...outcome.notes);
  if (lines.length === 0) return null;
  const files = outcome.batch.files.map((f) => f.path);
  const shown = files.length <= 3 ? files.join(", ") : `${files.length} files`;
  const failing = outcome.runs.some((r) => r.status === "failed" || r.status === "timed_out");
  return {
    text: [`Background callbacks for your edits of ${shown} finished:`, ...lines].join("\n"),
    failing,
  };
}
