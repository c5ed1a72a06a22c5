import type { DoctorReport } from "./types.ts";

export function renderDoctor(report: DoctorReport): string {
  const lines: string[] = [`cpilot doctor: ${report.root}`, ""];
  const mark = (ok: boolean | null) => (ok === null ? "-" : ok ? "✓" : "✗");
  lines.push("config");
  if (report.config.ok) lines.push(`  ✓ ${report.config.path} loads`);
  const { kept } = report.config;
  if (kept === true) lines.push("  ✓ plain data: its value is kept between calls (faster hooks)");
  else if (kept !== null) lines.push(`  - imported on every call: ${kept}`);
  else if (!report.config.ok)
    lines.push(...`✗ ${report.config.error}`.split("\n").map((l) => `  ${l}`));
  lines.push("", "agents           hooks  mcp  found by");
  if (report.agents.length === 0)
    lines.push("  (none found: no agent folders here or in your home, no agent CLI on PATH)");
  for (const a of report.agents) {
    lines.push(
      `  ${a.agent.padEnd(15)}${mark(a.hooks.wired).padEnd(7)}${mark(a.mcp?.wired ?? null).padEnd(5)}${a.foundBy.join(", ")}`,
    );
    if (a.problem) lines.push(`    ✗ ${a.problem}`);
    for (const x of a.addOns)
      lines.push(x.problem === null ? `    ✓ ${x.name} ${x.state}` : `    ✗ ${x.problem}`);
  }
  if (report.callbacks.length > 0) {
    lines.push("", "callbacks");
    const width = Math.max(...report.callbacks.map((c) => c.name.length)) + 2;
    for (const c of report.callbacks) {
      const sign = c.status === "ok" ? "✓" : c.status === "missing" ? "✗" : "-";
      lines.push(
        `  ${sign} ${c.name.padEnd(width)}${c.command ?? ""}${c.command ? "  " : ""}(${c.detail})`,
      );
    }
  }
  lines.push(
    "",
    report.problems === 0
      ? "all good"
      : `${report.problems} problem${report.problems === 1 ? "" : "s"} found`,
  );
  return lines.join("\n");
}
