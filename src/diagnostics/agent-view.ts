import type { Diagnostic } from "../model/diagnostic.ts";
import { withColdJit } from "./_cold-jit.ts";
import { diagnosticKey } from "./key.ts";

/** Characters of diagnostics shown per run; the rest is counted, and in the log. */
export const DIAGNOSTIC_BUDGET = 4000;
/** Diagnostics of files the agent did not edit shown before they are only counted. */
const OTHERS_SHOWN = 3;
const MAX_ONE = 1000;

export interface AgentViewOptions {
  readonly edited: readonly string[];
  readonly budget?: number;
  /** Diagnostics already shown in this reply by an earlier run (cargo check and clippy print the same): skipped. */
  readonly seen?: Set<string>;
  readonly ownFiles?: string;
  /** What "old" is relative to: "before your edit" (default), "in HEAD" for `cpilot check`. */
  readonly before?: string;
}

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

const KEY_LINES = 0x200000;
/** A key packs severity, path, line and position, exact below 2^53 while 3 * n * 2^21 * n is. */
const MAX_KEYED = Math.floor(Math.sqrt(Number.MAX_SAFE_INTEGER / (3 * KEY_LINES)));

/**
 * One part of a view's list in the order an agent reads it: errors first, then by path (in
 * code-unit order, the same on every machine), then line; ties keep their order.
 */
interface Part {
  readonly length: number;
  at(k: number): Diagnostic;
}

/**
 * A list's parts in one pass, each diagnostic packed into one number sorted in a typed array,
 * with no comparison call per pair: a dense output's thousands cost one write each. Null when
 * a key cannot hold the list: see {@link slowParts}.
 */
function keyedParts(
  list: readonly Diagnostic[],
  edited: ReadonlySet<string>,
): { mine: Part; others: Part; old: Diagnostic[] } | null {
  const n = list.length;
  if (n > MAX_KEYED) return null;
  const mine = new Keys(n);
  const others = new Keys(n);
  const old: Diagnostic[] = [];
  let lastFile: string | null = null;
  let part = mine;
  let group = 0;
  // No call per diagnostic (a fresh process pays for each).
  for (let i = 0; i < n; i++) {
    const d = list[i] as Diagnostic;
    if (d.baseline === "unchanged") {
      old.push(d);
      continue;
    }
    const line = d.line;
    if (!(line >= 0 && line < KEY_LINES && (line | 0) === line)) return null;
    if (d.file !== lastFile) {
      lastFile = d.file;
      part = edited.has(lastFile) ? mine : others;
      group = part.rank(lastFile);
    }
    const s = d.severity;
    const severity = s === "error" ? 0 : s === "warning" ? n : 2 * n;
    part.keys[part.length++] = ((severity + group) * KEY_LINES + line) * n + i;
  }
  return { mine: mine.sorted(list), others: others.sorted(list), old };
}

class Keys {
  readonly keys: Float64Array;
  length = 0;
  private readonly files: string[] = [];
  private readonly ranks = new Map<string, number>();

  constructor(private readonly n: number) {
    this.keys = new Float64Array(n);
  }

  rank(file: string): number {
    let rank = this.ranks.get(file);
    if (rank === undefined) {
      rank = this.files.length;
      this.files.push(file);
      this.ranks.set(file, rank);
    }
    return rank;
  }

  sorted(list: readonly Diagnostic[]): Part {
    const { n, files } = this;
    const keys = this.keys.subarray(0, this.length);
    const order = files.map((_, i) => i).sort((a, b) => codeUnitOrder(files[a], files[b]));
    if (order.some((rank, i) => rank !== i)) {
      const place = new Int32Array(files.length);
      order.forEach((rank, i) => {
        place[rank] = i;
      });
      for (let k = 0; k < keys.length; k++) {
        const key = keys[k] as number;
        const position = key % n;
        const rest = (key - position) / n;
        const line = rest % KEY_LINES;
        const groupKey = (rest - line) / KEY_LINES;
        const rank = groupKey % n;
        const severity = groupKey - rank;
        keys[k] = ((severity + (place[rank] as number)) * KEY_LINES + line) * n + position;
      }
    }
    keys.sort();
    return { length: keys.length, at: (k) => list[(keys[k] as number) % n] as Diagnostic };
  }
}

function codeUnitOrder(a: string | undefined, b: string | undefined): number {
  return a === b ? 0 : (a as string) < (b as string) ? -1 : 1;
}

function slowParts(
  list: readonly Diagnostic[],
  edited: ReadonlySet<string>,
): { mine: Part; others: Part; old: Diagnostic[] } {
  const old = list.filter((d) => d.baseline === "unchanged");
  const sorted = (ds: Diagnostic[]): Part => {
    ds.sort(
      (a, b) =>
        RANK[a.severity] - RANK[b.severity] || codeUnitOrder(a.file, b.file) || a.line - b.line,
    );
    return { length: ds.length, at: (k) => ds[k] as Diagnostic };
  };
  const fresh = list.filter((d) => d.baseline !== "unchanged");
  return {
    mine: sorted(fresh.filter((d) => edited.has(d.file))),
    others: sorted(fresh.filter((d) => !edited.has(d.file))),
    old,
  };
}

/**
 * What an agent reads of a run's diagnostics: what it brought into the files it edited, in
 * full; then new ones elsewhere, a few and a count; then how many were already there. Whole
 * diagnostics only, within a budget. Null when every one was shown by an earlier run.
 */
export function agentView(all: readonly Diagnostic[], options: AgentViewOptions): string[] | null {
  return withColdJit(() => view(all, options));
}

function view(all: readonly Diagnostic[], options: AgentViewOptions): string[] | null {
  const budget = options.budget ?? DIAGNOSTIC_BUDGET;
  const seen = options.seen ?? new Set<string>();
  const list = seen.size === 0 ? all : all.filter((d) => !seen.has(diagnosticKey(d)));
  const repeated = all.length - list.length;
  if (list.length === 0)
    return repeated > 0 ? [`(the same ${count(repeated, "diagnostic")} as above)`] : null;
  const edited = new Set(options.edited);
  const before = options.before ?? "before your edit";
  const own = options.ownFiles ?? "the files you edited";
  const parts = keyedParts(list, edited) ?? slowParts(list, edited);
  const { mine, others } = parts;
  let old = parts.old;

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
  while (shownMine < mine.length && take(mine.at(shownMine))) shownMine++;
  if (shownMine < mine.length)
    lines.push(
      `… and ${count(mine.length - shownMine, "more")} in ${options.ownFiles ?? "the files you edited"} (see the log)`,
    );
  // The edited files' own old ones are listed, not only counted: the agent tells its error
  // from the file's old ones by reading them.
  if (edited.size > 0 && (mine.length > 0 || others.length > 0)) {
    const inEdited = old.filter((d) => edited.has(d.file));
    const known = inEdited.filter((d) => !isUnverified(d));
    const unplaced = inEdited.filter(isUnverified);
    if (known.length > 0) {
      lines.push(`already there ${before}, in ${own}:`);
      let shown = 0;
      while (shown < fewShown(OTHERS_SHOWN, known.length) && take(known[shown] as Diagnostic))
        shown++;
      if (shown < known.length) lines.push(`… and ${known.length - shown} more already there`);
    }
    if (unplaced.length > 0) {
      lines.push(
        `${count(unplaced.length, "diagnostic")} in ${own} that cpilot cannot place (no record of the file ${before}): there ${before}, or not:`,
      );
      let shown = 0;
      while (shown < fewShown(OTHERS_SHOWN, unplaced.length) && take(unplaced[shown] as Diagnostic))
        shown++;
      if (shown < unplaced.length) lines.push(`… and ${unplaced.length - shown} more such`);
    }
    old = old.filter((d) => !edited.has(d.file));
  }
  if (others.length > 0) {
    const cap = mine.length === 0 ? others.length : OTHERS_SHOWN;
    // "new" only where a baseline judged them: `cpilot check` compares with nothing.
    const judged = others.at(0).baseline !== undefined;
    // Headed, else a new one reads as the agent's, or as the edited file's.
    if (mine.length > 0 || old.some(isUnverified))
      lines.push(
        `${count(others.length, judged ? "new diagnostic" : "diagnostic")} in other files:`,
      );
    let shown = 0;
    while (shown < fewShown(cap, others.length) && take(others.at(shown))) shown++;
    if (shown < others.length)
      lines.push(`… and ${others.length - shown} more in other files${filesOf(others, shown)}`);
  }
  // Not known to predate the edit: shown, and not counted as old.
  const unverified = old.filter(isUnverified);
  if (unverified.length > 0) {
    const where = unverified.every((d) => !edited.has(d.file))
      ? "in files you did not edit"
      : "in the files you edited or others";
    lines.push(
      `${count(unverified.length, "diagnostic")} ${where} that cpilot had not read before: there before your edit, or brought by it (a change they depend on):`,
    );
    let shown = 0;
    while (
      shown < fewShown(OTHERS_SHOWN, unverified.length) &&
      take(unverified[shown] as Diagnostic)
    )
      shown++;
    if (shown < unverified.length)
      lines.push(
        `… and ${unverified.length - shown} more in such files${filesOf(unverified, shown)}`,
      );
    // Told on an earlier call: say so, or the failure reads as neither "fix these" nor "not yours".
    if (unverified.every((d) => d.since === "unverified-told"))
      lines.push("(told before, so they no longer block: fix those your edits brought)");
    old = old.filter((d) => !isUnverified(d));
  }
  if (old.length > 0) {
    if (mine.length + others.length + unverified.length === 0) {
      lines.push(
        old.length === 1
          ? `its 1 diagnostic was already there ${before}:`
          : `all ${old.length} diagnostics were already there ${before}; the first:`,
      );
      for (const d of old.slice(0, OTHERS_SHOWN)) take(d);
    } else
      lines.push(
        `and ${old.length} that ${old.length === 1 ? "was" : "were"} already there ${before}`,
      );
  }
  if (repeated > 0) lines.push(`(and ${count(repeated, "diagnostic")} shown above)`);
  return lines;
}

/** One left over is shown, as its line costs the same. */
function fewShown(cap: number, total: number): number {
  return total === cap + 1 ? total : Math.min(cap, total);
}

function filesOf(
  list: { at(i: number): Diagnostic | undefined; length: number },
  from: number,
): string {
  const files: string[] = [];
  for (let i = from; i < list.length; i++) {
    const file = list.at(i)?.file;
    if (file !== undefined && file !== "" && !files.includes(file)) files.push(file);
  }
  if (files.length === 0) return "";
  const named = files.slice(0, 3).join(", ");
  const rest = files.length - 3;
  return rest > 0 ? `: ${named} and ${rest} other${rest === 1 ? "" : "s"}` : `: ${named}`;
}

/**
 * True when a failed run's errors were all there before the edit (none merely unverified):
 * the agent is told, but not made to fix code it never touched.
 */
export function onlyPreexisting(diagnostics: readonly Diagnostic[] | undefined): boolean {
  if (diagnostics === undefined || diagnostics.length === 0) return false;
  return (
    diagnostics.some((d) => d.severity === "error") &&
    diagnostics.every(
      (d) => d.baseline === "unchanged" && (d.since !== "unverified" || d.severity !== "error"),
    )
  );
}

function isUnverified(d: Diagnostic): boolean {
  return d.since === "unverified" || d.since === "unverified-told";
}

function count(n: number, word: string): string {
  return word === "more" ? `${n} more` : `${n} ${word}${n === 1 ? "" : "s"}`;
}
