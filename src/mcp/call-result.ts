import { diagnosticKey } from "../diagnostics/key.ts";
import type { Diagnostic } from "../model/diagnostic.ts";
import type { Resync, RunResult } from "../model/outcome.ts";
import { boundedDiff, renderRun } from "../ui/mcp/render.ts";
import type { CallAnswer } from "./batcher.ts";
import type { Unjudged } from "./package-judges.ts";
import type { WriteDone } from "./perform-write.ts";
import { resyncNote } from "./resync-note.ts";
import { toAgentSpace } from "./text-file.ts";

export interface BatchReport {
  readonly runs: readonly RunResult[];
  readonly resyncs: readonly Resync[];
  readonly notes: readonly string[];
  /** Non-blocking runs started for the batch; their results come later via the inbox. */
  readonly background: readonly { callback: string; files: readonly string[] }[];
  /** A config that does not load, say. */
  readonly trouble: string | null;
  /** Run id to the package config that judged it (the nearest config decides); absent: the project's. */
  readonly judgedBy?: ReadonlyMap<string, string>;
  /** Packages whose own config did not load: their edits were not checked. */
  readonly unjudged?: readonly Unjudged[];
}

/** What belongs to no single call goes in the first result. */
export function callResults(writes: readonly WriteDone[], report: BatchReport): CallAnswer[] {
  const { runs, resyncs, notes, background, trouble } = report;
  const paths = new Set(writes.map((w) => w.path));
  const orphanRuns = runs.filter((r) => !r.files.some((f) => paths.has(f)));
  const orphanNotes = notes.filter(
    (n) => !runs.some((r) => r.files.some((f) => paths.has(f)) && n.includes(r.id)),
  );
  const otherFiles = resyncs.filter((r) => !paths.has(r.path));
  return writes.map((write, index) => {
    // A diagnostic two callbacks print (cargo check and clippy) is told once per result.
    const seen = new Set<string>();
    const render = (run: RunResult) => {
      const lines = renderRun(run, seen);
      const by = report.judgedBy?.get(run.id);
      return by === undefined || lines.length === 0
        ? lines
        : [`judged by ${by}:`, ...lines.map((l) => `  ${l}`)];
    };
    const lines = [write.summary];
    if (write.gateNote !== null) lines.push(`The write gate changed this write: ${write.gateNote}`);
    const mine = runs.filter((r) => r.files.includes(write.path));
    const runLines = mine.flatMap(render);
    const later = background.filter((b) => b.files.includes(write.path));
    for (const b of later) {
      runLines.push(
        `started ${b.callback} in the background: its result comes with a later tool call`,
      );
    }
    if (runLines.length > 0)
      lines.push(`callbacks for ${write.path}:`, ...runLines.map((l) => `  ${l}`));
    lines.push(...notes.filter((n) => mine.some((r) => n.includes(r.id))));
    const resync = resyncs.find((r) => r.path === write.path);
    if (resync !== undefined && write.kind !== "deleted") lines.push(...resyncNote(write, resync));
    if (index === 0) {
      // What belongs to no single call of the batch is told once, in the first result.
      const other = orphanRuns.flatMap(render);
      if (other.length > 0) lines.push("other callback runs:", ...other.map((l) => `  ${l}`));
      lines.push(...orphanNotes);
      for (const r of otherFiles) lines.push(...otherFileNote(r));
    }
    if (trouble !== null) lines.push(trouble);
    for (const u of report.unjudged ?? []) {
      if (!write.path.startsWith(`${u.folder}/`)) continue;
      lines.push(
        `cpilot: in ${u.folder}/, judged by its own config: your edits there were not checked: ${u.why}`,
      );
    }
    const shownRuns = index === 0 ? [...mine, ...orphanRuns] : mine;
    return withDiagnostics(lines.join("\n"), shownRuns);
  });
}

export type RunDiagnostic = Diagnostic & { readonly callback: string; readonly runId: string };

/** As MCP `structuredContent`, for clients that act on data; each diagnostic once. */
function withDiagnostics(text: string, runs: readonly RunResult[]): CallAnswer {
  const seen = new Set<string>();
  const diagnostics: RunDiagnostic[] = [];
  for (const run of runs) {
    for (const d of run.diagnostics ?? []) {
      const key = diagnosticKey(d);
      if (seen.has(key)) continue;
      seen.add(key);
      diagnostics.push({ ...d, callback: run.callback, runId: run.id });
    }
  }
  return diagnostics.length === 0 ? { text } : { text, structured: { diagnostics } };
}

/** Config `resync: "tree"`. */
function otherFileNote(resync: Resync): string[] {
  if (resync.newText === null) return [`A callback deleted ${resync.path}.`];
  if (resync.oldText === null)
    return [`A callback wrote ${resync.path}; read it before editing it.`];
  return [
    `A callback changed ${resync.path}:`,
    boundedDiff(resync.path, toAgentSpace(resync.oldText).text, toAgentSpace(resync.newText).text),
  ];
}
