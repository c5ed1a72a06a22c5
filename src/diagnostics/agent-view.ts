import type { Diagnostic } from "../model/diagnostic.ts";
import { withColdJit } from "./_cold-jit.ts";
import { diagnosticKey } from "./key.ts";

/** Characters of diagnostics shown per run; the rest is counted, and in the log. */
export const DIAGNOSTIC_BUDGET = 4000;
/** Diagnostics of files the agent did not just edit, shown before they are only counted. */
const OTHERS_SHOWN = 3;
/** Longest single diagnostic; a longer message is cut with a note of how much. */
const MAX_ONE = 1000;

export interface AgentViewOptions {
  /** The files the run was for: the agent's edits, shown first and in full. */
  readonly edited: readonly string[];
  /** Character budget for the whole view. */
  readonly budget?: number;
  /**
   * Diagnostics already shown in this reply (by an earlier run: cargo check and clippy
   * print the same errors); these are skipped and the set is extended.
   */
  readonly seen?: Set<string>;
  /** How the run's own files are named: an agent edited them, `cpilot check` checked them. */
  readonly ownFiles?: string;
}

/** One diagnostic on one line (its message's own lines indented below it). */
export function formatDiagnostic(d: Diagnostic): string {
  const where =
    d.file === ""
      ? ""
      : `${d.file}${d.line > 0 ? `:${d.line}${d.column > 0 ? `:${d.column}` : ""}` : ""} `;
  const code = d.code === "" ? "" : ` ${d.code}`;
  const text = `${where}${d.severity}${code}: ${d.message.replaceAll("\n", "\n    ")}`;
  return text.length > MAX_ONE
    ? `${text.slice(0, MAX_ONE)}… (${text.length - MAX_ONE} more chars)`
    : text;
}

const RANK = { error: 0, warning: 1, info: 2 } as const;

/** Largest line number the numeric sort keys hold (2^21 - 1); past it, the comparison sort. */
const MAX_KEY_LINE = 0x1fffff;

/**
 * Sort `list` in place as an agent reads it: errors first, then by path (in code-unit
 * order: the same on every machine, no collation per comparison), then line; ties keep
 * their order. Thousands of diagnostics are sorted by one number each (severity, path and
 * line packed with the position) in a typed array, without a comparison call per pair.
 */
function sortForAgent(list: Diagnostic[]): void {
  const n = list.length;
  if (n < 2) return;
  // No call per diagnostic (a fresh process pays for each): runs of one file add it once.
  const distinct = new Set<string>();
  let last: string | null = null;
  for (let i = 0; i < n; i++) {
    const file = (list[i] as Diagnostic).file;
    if (file === last) continue;
    last = file;
    distinct.add(file);
  }
  const files = [...distinct].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const fileRank = new Map(files.map((f, i) => [f, i]));
  // A line a key cannot hold (huge, or not a whole number from some JSON) sorts by comparison.
  let packable = true;
  for (const d of list)
    if (!(Number.isInteger(d.line) && d.line >= 0 && d.line <= MAX_KEY_LINE)) packable = false;
  // The key packs position < n, line < 2^21, path < files.length, severity < 3: exact below 2^53.
  if (!packable || 3 * files.length * (MAX_KEY_LINE + 1) * n >= Number.MAX_SAFE_INTEGER) {
    list.sort(
      (a, b) =>
        RANK[a.severity] - RANK[b.severity] ||
        (a.file === b.file ? 0 : a.file < b.file ? -1 : 1) ||
        a.line - b.line,
    );
    return;
  }
  const keys = new Float64Array(n);
  let rankedFile: string | null = null;
  let rank = 0;
  for (let i = 0; i < n; i++) {
    const d = list[i] as Diagnostic;
    if (d.file !== rankedFile) {
      rankedFile = d.file;
      rank = fileRank.get(rankedFile) as number;
    }
    const group = RANK[d.severity] * files.length + rank;
    keys[i] = (group * (MAX_KEY_LINE + 1) + d.line) * n + i;
  }
  keys.sort();
  const before = list.slice();
  for (let i = 0; i < n; i++) list[i] = before[(keys[i] as number) % n] as Diagnostic;
}

/**
 * What an agent reads of a run's diagnostics: what it brought into the files it edited, in
 * full; then new ones elsewhere, the first few and a count; then how many were already
 * there. Whole diagnostics only, within a character budget. Null when there is nothing
 * left to say (every one was shown by an earlier run of this reply).
 */
export function agentView(all: readonly Diagnostic[], options: AgentViewOptions): string[] | null {
  return withColdJit(() => view(all, options));
}

function view(all: readonly Diagnostic[], options: AgentViewOptions): string[] | null {
  const budget = options.budget ?? DIAGNOSTIC_BUDGET;
  const seen = options.seen ?? new Set<string>();
  // The reply's first run has nothing shown before it: no key to make per diagnostic.
  const list = seen.size === 0 ? all : all.filter((d) => !seen.has(diagnosticKey(d)));
  const repeated = all.length - list.length;
  if (list.length === 0)
    return repeated > 0 ? [`(the same ${count(repeated, "diagnostic")} as above)`] : null;
  const edited = new Set(options.edited);
  // One pass sorts them out (a dense output has thousands).
  const mine: Diagnostic[] = [];
  const others: Diagnostic[] = [];
  const old: Diagnostic[] = [];
  let lastFile: string | null = null;
  let lastEdited = false;
  for (const d of list)
    if (d.baseline === "unchanged") old.push(d);
    else {
      if (d.file !== lastFile) {
        lastFile = d.file;
        lastEdited = edited.has(lastFile);
      }
      (lastEdited ? mine : others).push(d);
    }
  sortForAgent(mine);
  sortForAgent(others);

  const lines: string[] = [];
  let left = budget;
  const take = (d: Diagnostic): boolean => {
    const text = formatDiagnostic(d);
    if (text.length + 1 > left && lines.length > 0) return false;
    left -= text.length + 1;
    lines.push(text);
    seen.add(diagnosticKey(d));
    return true;
  };
  let shownMine = 0;
  for (const d of mine)
    if (take(d)) shownMine++;
    else break;
  if (shownMine < mine.length)
    lines.push(
      `… and ${count(mine.length - shownMine, "more")} in ${options.ownFiles ?? "the files you edited"} (see the log)`,
    );
  if (others.length > 0) {
    const cap = mine.length === 0 ? others.length : OTHERS_SHOWN;
    if (mine.length > 0) lines.push(`${count(others.length, "new diagnostic")} in other files:`);
    let shown = 0;
    for (const d of others.slice(0, cap))
      if (take(d)) shown++;
      else break;
    if (shown < others.length) lines.push(`… and ${others.length - shown} more in other files`);
  }
  if (old.length > 0) {
    if (mine.length + others.length === 0) {
      lines.push(
        old.length === 1
          ? "its 1 diagnostic was already there before your edit:"
          : `all ${old.length} diagnostics were already there before your edit; the first:`,
      );
      for (const d of old.slice(0, OTHERS_SHOWN)) take(d);
    } else
      lines.push(
        `and ${old.length} that ${old.length === 1 ? "was" : "were"} already there before your edit`,
      );
  }
  if (repeated > 0) lines.push(`(and ${count(repeated, "diagnostic")} shown above)`);
  return lines;
}

/**
 * True when a failed run's diagnostics explain its failure by what was already there: it
 * has errors, and every diagnostic it reported predates the edit. The agent is told, but
 * not made to fix code it never touched (the failure does not block).
 */
export function onlyPreexisting(diagnostics: readonly Diagnostic[] | undefined): boolean {
  if (diagnostics === undefined || diagnostics.length === 0) return false;
  return (
    diagnostics.some((d) => d.severity === "error") &&
    diagnostics.every((d) => d.baseline === "unchanged")
  );
}

function count(n: number, word: string): string {
  return word === "more" ? `${n} more` : `${n} ${word}${n === 1 ? "" : "s"}`;
}
