import type { ResolvedConfig } from "../../config/resolve.ts";
import { isActive, readToggles } from "../../config/state.ts";

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();
}

function describe(run: ResolvedConfig["callbacks"][number]["run"]): string {
  if (typeof run === "function") return "(a TypeScript function)";
  const text = typeof run === "string" ? run : run.join(" ");
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Which checks run on which files, whether they hold the agent up, and what they do; null
 * when no callback is active.
 *
 * @example
 * // | callback | files | runs | what it does |
 * // | lint | *.ts | blocking, per file | eslint {file} |
 */
export function renderCallbacksPanel(config: ResolvedConfig): string | null {
  const toggles = readToggles(config.root);
  const active = config.callbacks.filter((c) => isActive(c, toggles));
  if (active.length === 0) return null;
  const rows = active.map((c) => {
    const mode = `${c.blocking ? "blocking" : "background"}, ${c.per === "file" ? "per file" : "per batch"}`;
    const what = c.description || describe(c.run);
    return `| ${cell(c.name)} | ${cell(c.patterns.join(" "))} | ${mode} | ${cell(what)} |`;
  });
  return [
    "cpilot runs these checks when you edit matching files (results come back to you as hook messages):",
    "| callback | files | runs | what it does |",
    "|---|---|---|---|",
    ...rows,
    "A failed blocking check must be fixed before you finish; `cpilot logs <run>` shows a run's full output.",
  ].join("\n");
}
