import { join, relative } from "node:path";
import type { Diagnostic, Severity } from "../model/diagnostic.ts";
import type { RunResult } from "../model/outcome.ts";

const MAX_ANNOTATIONS = 50;

const COMMAND: Record<Severity, string> = { error: "error", warning: "warning", info: "notice" };

/** As GitHub's own toolkit escapes it. */
export function escapeData(text: string): string {
  return text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

export function escapeProperty(text: string): string {
  return escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");
}

/**
 * GitHub Actions annotations for the runs' diagnostics, with paths relative to `workspace`
 * (the project may be a folder of the checkout). Errors first, at most MAX_ANNOTATIONS.
 */
export function githubAnnotations(
  runs: readonly RunResult[],
  root: string,
  workspace: string = root,
): string[] {
  const seen = new Set<string>();
  const all: { d: Diagnostic; callback: string }[] = [];
  for (const run of runs) {
    for (const d of run.diagnostics ?? []) {
      const line = annotation(d, run.callback, root, workspace);
      if (seen.has(line)) continue;
      seen.add(line);
      all.push({ d, callback: run.callback });
    }
  }
  const rank = { error: 0, warning: 1, info: 2 };
  all.sort((a, b) => rank[a.d.severity] - rank[b.d.severity]);
  const lines = all
    .slice(0, MAX_ANNOTATIONS)
    .map(({ d, callback }) => annotation(d, callback, root, workspace));
  if (all.length > MAX_ANNOTATIONS)
    lines.push(`cpilot: ${all.length - MAX_ANNOTATIONS} more diagnostics are in the run logs`);
  return lines;
}

function annotation(d: Diagnostic, callback: string, root: string, workspace: string): string {
  const props: string[] = [];
  if (d.file !== "") {
    const abs = d.file.startsWith("/") ? d.file : join(root, d.file);
    props.push(`file=${escapeProperty(relative(workspace, abs).replaceAll("\\", "/"))}`);
    if (d.line > 0) {
      props.push(`line=${d.line}`);
      if (d.endLine !== undefined && d.endLine >= d.line) props.push(`endLine=${d.endLine}`);
      if (d.column > 0) props.push(`col=${d.column}`);
      if (d.endColumn !== undefined && d.endColumn > 0) props.push(`endColumn=${d.endColumn}`);
    }
  }
  const title = `${callback}: ${d.tool}${d.code === "" ? "" : ` ${d.code}`}`;
  props.push(`title=${escapeProperty(title)}`);
  return `::${COMMAND[d.severity]} ${props.join(",")}::${escapeData(d.message)}`;
}
