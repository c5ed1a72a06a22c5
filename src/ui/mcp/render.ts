import { createTwoFilesPatch } from "diff";
import { agentView } from "../../diagnostics/agent-view.ts";
import type { RunResult } from "../../model/outcome.ts";

/**
 * Where an agent's new_string stands after a formatter rewrote the file: exact (the formatted
 * text), lines (the whole lines now holding it), unchanged, or unsure (the agent must re-read).
 */
export type RegionView =
  | { kind: "exact" | "lines"; text: string; startLine: number; endLine: number }
  | { kind: "unchanged"; startLine: number }
  | { kind: "unsure"; startLine: number | null; endLine: number | null };

/** The rest is one callback_logs call away. */
const TAIL_SHOWN = 8;
const LINE_CHARS = 300;
const MAX_DIFF_LINES = 80;

function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function cut(line: string): string {
  return line.length > LINE_CHARS ? `${line.slice(0, LINE_CHARS)} …` : line;
}

/** A run in a few lines; silent runs say nothing. `seen` holds diagnostics an earlier run of the reply showed. */
export function renderRun(run: RunResult, seen?: Set<string>): string[] {
  const files = run.files.length === 1 ? ` on ${run.files[0]}` : ` on ${run.files.length} files`;
  switch (run.status) {
    case "silent":
      return [];
    case "passed":
      if (run.successMessage === "silent") return [];
      return [
        `passed  ${run.callback}${run.successMessage ? `: ${run.successMessage}` : ""} (${seconds(run.durationMs)})`,
      ];
    case "started":
      return [`started ${run.callback}${files} in the background (run ${run.id})`];
    case "replaced":
    case "skipped":
      return [`${run.status.padEnd(7)} ${run.callback}: ${run.summary} (run ${run.id})`];
    case "failed":
    case "timed_out": {
      const lines = [`FAILED  ${run.callback}${files}: ${run.summary} (run ${run.id})`];
      const view = diagnosticsView(run, seen);
      const tail = view === null ? run.tail.slice(-TAIL_SHOWN) : [];
      if (view !== null) lines.push(...view.map((l) => `  ${l}`));
      else if (tail.length > 0) {
        if (run.tail.length > tail.length) lines.push("  | …");
        lines.push(...tail.map((l) => `  | ${cut(l)}`));
      } else {
        lines.push("  (no output)");
      }
      lines.push(`  full output: callback_logs with run_id "${run.id}"`);
      return lines;
    }
  }
}

function diagnosticsView(run: RunResult, seen: Set<string> | undefined): string[] | null {
  const diagnostics = run.diagnostics ?? [];
  if (!diagnostics.some((d) => d.severity === "error")) return null;
  const view = agentView(diagnostics, { edited: run.files, ...(seen ? { seen } : {}) });
  return view === null ? null : view.flatMap((l) => l.split("\n"));
}

/** A fenced block that no backtick run in `text` can close early. */
export function fenced(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const fence = "`".repeat(longest + 1);
  return `${fence}\n${text.endsWith("\n") ? text : `${text}\n`}${fence}`;
}

export function textDiff(path: string, before: string, after: string): string {
  if (before === after) return "";
  return createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, {
    context: 2,
  }).replace(/^(?:Index:[^\n]*\n)?=+\n/, "");
}

export function boundedDiff(path: string, before: string, after: string): string {
  const diff = textDiff(path, before, after);
  const lines = diff.trimEnd().split("\n");
  if (lines.length > MAX_DIFF_LINES) {
    return `(the diff is ${lines.length} lines long: re-read ${path} with read_file instead)`;
  }
  return fenced(diff.trimEnd());
}

const MAX_REGION_LINES = 150;

export function renderRegion(view: RegionView, label: string): string[] {
  if (
    (view.kind === "exact" || view.kind === "lines") &&
    view.text.split("\n").length > MAX_REGION_LINES
  ) {
    return [
      `${label} was rewritten and now spans lines ${view.startLine}-${view.endLine}, too long to show here: re-read them with read_file before editing them again`,
    ];
  }
  switch (view.kind) {
    case "unchanged":
      return [];
    case "exact":
      return [
        `${label} now reads (line${view.endLine > view.startLine ? `s ${view.startLine}-${view.endLine}` : ` ${view.startLine}`}); use this text in your next old_string:`,
        fenced(view.text),
      ];
    case "lines":
      return [
        `${label} and the lines around it now read (lines ${view.startLine}-${view.endLine}); use this text in your next old_string:`,
        fenced(view.text),
      ];
    case "unsure": {
      const near =
        view.startLine === null
          ? ""
          : ` (near lines ${view.startLine}-${view.endLine ?? view.startLine})`;
      return [
        `${label} cannot be located with confidence after the rewrite${near}: re-read the file with read_file before editing it again`,
      ];
    }
  }
}
