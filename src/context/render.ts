import type { ApplyReport, UpdateResult } from "./types.ts";

export interface RenderOptions {
  dryRun?: boolean;
  diffs?: boolean;
}

/** `ok`: every block parsed and applied. */
export function summarize(report: ApplyReport): {
  applied: number;
  failed: number;
  unreadable: number;
  ok: boolean;
} {
  const applied = report.results.filter((result) => result.ok).length;
  const failed = report.results.length - applied;
  const unreadable = report.parseErrors.length;
  return { applied, failed, unreadable, ok: failed === 0 && unreadable === 0 };
}

function title(result: UpdateResult): string {
  const parts = [result.action || "(no action)", result.file || "(no file)"];
  if (result.id !== undefined) parts.push(`"${result.id}"`);
  if (result.section !== undefined) parts.push(`in section "${result.section}"`);
  if (result.line !== undefined) parts.push(`(block at line ${result.line})`);
  return parts.join(" ");
}

/**
 * What was applied, what failed and why, with the hint that fixes it.
 *
 * @example
 * renderReport(applyUpdates(reply, opts));
 * // context updates: 1 applied, 1 failed
 * // applied: add TASKS.md in section "Tasks" (block at line 3)
 * // FAILED: update DECISIONS.md "Use Jest" (block at line 9)
 * //   Cannot update "Use Jest" in "DECISIONS.md": nothing matches
 * //   hint: nearest: line 5: ## Use Vitest
 */
export function renderReport(report: ApplyReport, options: RenderOptions = {}): string {
  const { applied, failed, unreadable } = summarize(report);
  if (report.results.length === 0 && unreadable === 0)
    return "context updates: no <context-update> blocks found";
  const counts = [`${applied} ${options.dryRun ? "would apply" : "applied"}`];
  if (failed > 0) counts.push(`${failed} failed`);
  if (unreadable > 0) counts.push(`${unreadable} could not be parsed`);
  const lines = [`context updates: ${counts.join(", ")}`];
  for (const result of report.results) {
    lines.push(
      `${result.ok ? (options.dryRun ? "would apply" : "applied") : "FAILED"}: ${title(result)}`,
    );
    if (!result.ok && result.error !== undefined) lines.push(`  ${result.error}`);
    if (!result.ok && result.hint !== undefined) lines.push(`  hint: ${result.hint}`);
    for (const warning of result.warnings) lines.push(`  warning: ${warning}`);
    if (options.diffs && result.diff !== "") lines.push(result.diff.trimEnd());
  }
  for (const error of report.parseErrors) {
    lines.push(`FAILED: block at line ${error.line}: ${error.message}`);
    if (error.hint !== undefined) lines.push(`  hint: ${error.hint}`);
  }
  return lines.join("\n");
}
