import type { Diagnostic } from "../../model/diagnostic.ts";
import { linesUnchangedSinceCommit } from "./_committed.ts";
import { lineHash, sourceLines } from "./_source-lines.ts";
import { type Baseline, type BaselineEntry, readBaseline, writeBaseline } from "./store.ts";

/** Files read for their line texts per run; diagnostics in more files match by line. */
const MAX_FILES_READ = 300;
/** Edited files compared with their last commit per run (one `git show` each); past this, new. */
const MAX_COMMIT_LOOKUPS = 20;

export interface CompareInput {
  readonly root: string;
  readonly callback: string;
  readonly diagnostics: readonly Diagnostic[];
  /** The files the run checked: one without diagnostics now is known clean. */
  readonly files: readonly string[];
  /** Files an agent just edited; empty for `cpilot check`. */
  readonly edited: ReadonlySet<string>;
  /**
   * `cpilot check` sees the project as its people left it: it records what it finds as
   * already there and marks nothing.
   */
  readonly fromCheck: boolean;
}

/**
 * Mark each diagnostic "new" or "unchanged" against the callback's baseline (the last run
 * that saw its file), then make this run the baseline. A diagnostic is the same one when its
 * tool, severity, code and message are equal and it sits on the same source text (lines the
 * edit moved do not count), or on the same line when the text cannot be read.
 *
 * A file with no baseline yet: in a file the agent edited, what is on a line unchanged since
 * the last commit was there before; in any other file it counts as new (those are shown as a
 * count and a few, after the edited files'). What an agent's edit brought stays "new" in
 * later runs until it is gone. Saving is best effort and never throws.
 */
export function compareWithBaseline(input: CompareInput): Diagnostic[] {
  const { root, callback, edited, fromCheck } = input;
  const before = safeRead(root, callback);
  const next: Baseline = { ...before };
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of input.diagnostics) {
    const list = byFile.get(d.file);
    if (list === undefined) byFile.set(d.file, [d]);
    else list.push(d);
  }
  const marked = new Map<Diagnostic, Diagnostic>();
  let read = 0;
  let lookups = 0;
  for (const [file, list] of byFile) {
    const src = read++ < MAX_FILES_READ ? sourceLines(root, file) : null;
    const entries = before[file];
    const byKey = indexByKey(entries ?? []);
    const used = new Uint8Array(entries?.length ?? 0);
    let committed: Set<number> | null | undefined;
    const kept: BaselineEntry[] = [];
    for (const d of list) {
      const key = `${d.tool}\0${d.severity}\0${d.code}\0${d.message}`;
      const text = d.line > 0 && src !== null ? lineHash(src[d.line - 1]) : "";
      let introduced: boolean;
      let since: "run" | "commit" = "run";
      if (fromCheck) introduced = false;
      else if (entries !== undefined) {
        const at = findMatch(entries, byKey.get(key) ?? [], used, d.line, text);
        introduced = at < 0 ? true : (entries[at] as BaselineEntry).introduced;
      } else if (edited.has(file) && src !== null) {
        // Asked once per file (null, a file new since the commit, is an answer too).
        if (committed === undefined)
          committed =
            lookups++ < MAX_COMMIT_LOOKUPS ? linesUnchangedSinceCommit(root, file, src) : null;
        introduced = !(committed?.has(d.line) ?? false) || d.line === 0;
        since = "commit";
      } else introduced = true;
      kept.push({ key, line: d.line, text, introduced });
      if (!fromCheck)
        marked.set(d, {
          ...d,
          baseline: introduced ? "new" : "unchanged",
          ...(introduced ? {} : { since }),
        });
    }
    delete next[file];
    next[file] = kept;
  }
  // A clean run over files already known clean (most passing runs) leaves nothing to save.
  let changed = byFile.size > 0;
  for (const file of input.files) {
    if (byFile.has(file)) continue;
    if (before[file]?.length !== 0) changed = true;
    delete next[file];
    next[file] = [];
  }
  if (changed) writeBaseline(root, callback, next);
  return input.diagnostics.map((d) => marked.get(d) ?? d);
}

function safeRead(root: string, callback: string): Baseline {
  try {
    return readBaseline(root, callback);
  } catch {
    return {};
  }
}

/** Entry indexes by key, so matching costs per diagnostic the entries that can match it. */
function indexByKey(entries: readonly BaselineEntry[]): Map<string, number[]> {
  const index = new Map<string, number[]>();
  entries.forEach((e, i) => {
    const list = index.get(e.key);
    if (list === undefined) index.set(e.key, [i]);
    else list.push(i);
  });
  return index;
}

/**
 * The unused entry (of `candidates`, those with its key) that is this diagnostic: on the
 * same text (nearest line first); without texts, on the same line; -1 when none.
 */
function findMatch(
  entries: readonly BaselineEntry[],
  candidates: readonly number[],
  used: Uint8Array,
  line: number,
  text: string,
): number {
  let best = -1;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const i of candidates) {
    const e = entries[i] as BaselineEntry;
    if (used[i]) continue;
    const sameText = text !== "" && e.text !== "" ? e.text === text : e.line === line;
    if (!sameText) continue;
    const distance = Math.abs(e.line - line);
    if (distance < bestDistance) {
      best = i;
      bestDistance = distance;
    }
  }
  if (best >= 0) used[best] = 1;
  return best;
}
