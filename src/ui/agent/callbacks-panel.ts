import { relative } from "node:path";
import type { ResolvedCallback, ResolvedConfig } from "../../config/resolve.ts";
import { isActive, readToggles } from "../../config/state.ts";

/**
 * Claude Code keeps hook output past 10,000 characters out of the model's context (a file
 * and a short preview instead), and the waiting results share the message: the table stays
 * well under that.
 */
export const PANEL_BUDGET = 6_000;

/** A files cell past this many characters ends at a pattern with a count of the rest. */
const FILES_CELL = 120;

const HEAD = [
  "cpilot runs these checks when you edit matching files (results come back to you as hook messages):",
  "| callback | files | runs | what it does |",
  "|---|---|---|---|",
];
const FOOT =
  "A failed blocking check must be fixed before you finish; `cpilot logs <run>` shows a run's full output.";

function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s+/g, " ").trim();
}

function describe(run: ResolvedCallback["run"]): string {
  if (typeof run === "function") return "(a TypeScript function)";
  const text = typeof run === "string" ? run : run.join(" ");
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function files(patterns: readonly string[]): string {
  let text = "";
  for (const [i, p] of patterns.entries()) {
    const next = text === "" ? p : `${text} ${p}`;
    if (next.length > FILES_CELL) return `${text} … ${patterns.length - i} more`;
    text = next;
  }
  return text;
}

const mode = (c: ResolvedCallback) =>
  `${c.blocking ? "blocking" : "background"}, ${c.per === "file" ? "per file" : "per batch"}`;

const row = (name: string, filesText: string, runs: string, what: string) =>
  `| ${cell(name)} | ${cell(filesText)} | ${runs} | ${cell(what)} |`;

/** One row per kind of check a monorepo repeats in each package (`typecheck-packages-a`, `-b`…). */
function groupedRows(root: string, callbacks: readonly ResolvedCallback[]): string[] {
  const groups = new Map<string, ResolvedCallback[]>();
  for (const c of callbacks) {
    const key = `${c.name.split("-")[0]}\0${mode(c)}`;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups.values()].map((group) => {
    const [first] = group as [ResolvedCallback];
    if (group.length === 1) return row(first.name, files(first.patterns), mode(first), what(first));
    const folders = group.map((c) => relative(root, c.cwd) || ".");
    const shown = folders.slice(0, 3).join(", ");
    const where = `in ${folders.length} folders: ${shown}${folders.length > 3 ? ", …" : ""}`;
    const prefix = first.name.split("-")[0];
    return row(`${prefix}-… (${group.length} callbacks)`, where, mode(first), what(first));
  });
}

const what = (c: ResolvedCallback) => c.description || describe(c.run);

/**
 * Which checks run on which files, whether they hold the agent up, and what they do; null
 * when no callback is active. Past {@link PANEL_BUDGET}, a check repeated per package is
 * one row, and what still does not fit is counted and left to `cpilot list`.
 *
 * @example
 * // | callback | files | runs | what it does |
 * // | lint | *.ts | blocking, per file | eslint {file} |
 */
export function renderCallbacksPanel(config: ResolvedConfig): string | null {
  const toggles = readToggles(config.root);
  const active = config.callbacks.filter((c) => isActive(c, toggles));
  if (active.length === 0) return null;
  const plain = active.map((c) => row(c.name, files(c.patterns), mode(c), what(c)));
  const fits = (rows: readonly string[]) =>
    [...HEAD, ...rows, FOOT].join("\n").length <= PANEL_BUDGET;
  let rows = fits(plain) ? plain : groupedRows(config.root, active);
  if (!fits(rows)) {
    const kept: string[] = [];
    for (const r of rows) {
      if (!fits([...kept, r, "x".repeat(80)])) break;
      kept.push(r);
    }
    rows = [
      ...kept,
      `… and ${rows.length - kept.length} more rows: \`cpilot list\` shows them all.`,
    ];
  }
  return [...HEAD, ...rows, FOOT].join("\n");
}
