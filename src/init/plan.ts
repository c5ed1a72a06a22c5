import type { Detection } from "./spec.ts";
import type { CodeStyle } from "./style.ts";

/** Each callback, what it runs and on what, and why. */
export function renderPlan(
  root: string,
  detection: Detection,
  style: CodeStyle,
  file: string,
  formatWhy: string,
): string {
  const lines = [`cpilot init: ${root}`, ""];
  const width = Math.max(8, ...detection.proposals.map((p) => p.callback.name.length));
  for (const { callback: c, why } of detection.proposals) {
    const run = Array.isArray(c.run) ? c.run.join(" ") : c.run;
    const pattern = Array.isArray(c.pattern) ? c.pattern.join(" ") : c.pattern;
    const flags = [
      c.cwd ? `runs in ${c.cwd}/` : "",
      c.fixes ? "fixes files" : "",
      c.blocking === false ? "in the background" : "",
    ]
      .filter(Boolean)
      .join(", ");
    lines.push(`  ${c.name.padEnd(width)}  ${run}`);
    lines.push(`  ${"".padEnd(width)}  on ${pattern}${flags ? ` · ${flags}` : ""}`);
    lines.push(`  ${"".padEnd(width)}  from ${why}`);
  }
  for (const note of detection.notes) lines.push(`  note: ${note}`);
  if (detection.resyncTree)
    lines.push("  resync: tree (rustfmt rewrites child modules too; those rewrites are reported)");
  const indent = style.useTabs ? "tabs" : `${style.indentWidth} spaces`;
  lines.push(
    "",
    `will write ${file} (${formatWhy}); style from ${style.from}: ${indent}, ${style.singleQuote ? "single" : "double"} quotes`,
  );
  return lines.join("\n");
}
