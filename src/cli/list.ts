import { readProposals } from "../config/proposals.ts";
import { isActive, readToggles } from "../config/state.ts";
import { loadProjectConfigSupervised } from "../config/supervised-load.ts";
import { writeErr, writeOut } from "../platform/stdio.ts";
import { renderTable } from "../ui/table.ts";
import { parseFlags } from "./_common.ts";

export async function listCommand(args: string[], options: { cwd: string }): Promise<number> {
  const { values } = parseFlags(
    args,
    { json: { type: "boolean" }, config: { type: "string" } },
    "cpilot list [--json] [--config PATH]",
  );
  const config = await loadProjectConfigSupervised(options.cwd, values.config);
  const toggles = readToggles(config.root);
  const rows = config.callbacks.map((cb) => ({
    name: cb.name,
    description: cb.description,
    pattern: cb.patterns.join(" "),
    blocking: cb.blocking,
    per: cb.per,
    enabled: isActive(cb, toggles),
  }));
  if (values.json) {
    writeOut(
      `${JSON.stringify({ root: config.root, config: config.path, allDisabled: toggles.allDisabled, callbacks: rows })}\n`,
    );
    return 0;
  }
  const table = renderTable(
    ["name", "description", "pattern", "blocking", "enabled"],
    rows.map((r) => [
      r.name,
      r.description,
      r.pattern,
      r.blocking ? "yes" : "no",
      r.enabled ? "yes" : "no",
    ]),
  );
  writeOut(`${table}\n`);
  if (toggles.allDisabled)
    writeErr("all callbacks are paused here: `cpilot enable --all` resumes them\n");
  const proposed = readProposals(config.root).map((p) => p.name);
  if (proposed.length > 0)
    writeErr(
      `an agent proposed ${proposed.join(", ")}: not run until you approve (\`cpilot approve\` shows them)\n`,
    );
  return 0;
}
