import type { Diagnostic } from "../../model/diagnostic.ts";
import { crc32 } from "../../platform/crc32.ts";
import { filesUnchangedSinceCommit, linesUnchangedSinceCommit } from "./_committed.ts";
import { editedNames, namesInMessage } from "./_edited-names.ts";
import { keyHead, lineHash, sourceLines } from "./_source-lines.ts";
import {
  decodeSaved,
  type FileEntries,
  knownCleanInSaved,
  MAX_ENTRIES,
  type ReadBaseline,
  readSavedBaseline,
  type SavedBaseline,
  STRIDE,
  updateBaseline,
} from "./store.ts";

/** Runs over at most this many files look their files up in the baseline's text first. */
const FEW_FILES = 16;
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
  /**
   * The callback checks the same things whatever files it is given (`tsc -p .`): once one
   * of its runs was read whole, a file that run did not name had no diagnostics.
   */
  readonly checksWholeProject?: boolean;
  /**
   * The diagnostics are the caller's own (a parse it just made): marked in place, not
   * copied (thousands of copies cost more than the comparison).
   */
  readonly inPlace?: boolean;
  /**
   * Only part of the run's output was read (a limit), or a failed run named no file: its
   * diagnostics are compared; only files read whole are saved (see the end), and none is
   * recorded clean, since a file with none read may well have some.
   */
  readonly partial?: boolean;
  /**
   * Whether to save this run as the baseline, asked with the marked diagnostics before
   * saving: false when the caller will read more of the output and compare again (a partial
   * record saved first would lose what the agent's edit brought past its cut). Default yes.
   */
  readonly save?: (marked: readonly Diagnostic[]) => boolean;
}

/**
 * Mark each diagnostic "new" or "unchanged" against the callback's baseline (the last run
 * that saw its file), then make this run the baseline. A diagnostic is the same one when its
 * tool, severity, code and message are equal and it sits on the same source text (lines the
 * edit moved do not count), or on the same line when the text cannot be read.
 *
 * A file with no baseline yet: in a file the agent edited, what is on a line unchanged since
 * the last commit was there before; in a file it did not edit that is as in the last commit,
 * all of it was; in any other file it counts as new (those are shown as a count and a few,
 * after the edited files'). What an agent's edit brought stays "new" in later runs until it
 * is gone. Saving is best effort and never throws.
 */
export function compareWithBaseline(input: CompareInput): Diagnostic[] {
  const { root, callback, edited, fromCheck } = input;
  const list = input.diagnostics;
  // A run over more files than a baseline keeps records none of them clean: kept, they would
  // push each other out, and every such run would rewrite the whole baseline (a clean
  // `check --all` over 50,000 files cost ~90 ms and ~15 MB for that).
  const recordClean = input.files.length <= MAX_ENTRIES;
  if (list.length === 0 && !recordClean) return [];
  const saved = safeRead(root, callback);
  // A clean run over a few files already known clean (most hook calls): nothing to decode.
  if (
    list.length === 0 &&
    input.files.length <= FEW_FILES &&
    knownCleanInSaved(saved, [...input.files, WHOLE_RUN])
  )
    return [];
  const before = decodeSaved(saved);
  const wholeRunBefore = before.get(WHOLE_RUN) !== undefined;
  // An earlier run of this callback was read whole, and it checks the whole project: a file
  // it did not name had none then, so a file with no record has none that predate the edit
  // (an edit to a.ts that breaks b.ts, or line 1 that breaks line 2 of a file seen clean).
  const noneBefore = wholeRunBefore && input.checksWholeProject === true;
  const known: ReadBaseline = { files: before, version: saved.version };
  // Per file, in the order first seen, where its diagnostics lie in `list`: runs of
  // indexes, a start and an end each (a file's diagnostics mostly come together).
  const byFile = new Map<string, number[]>();
  let runFile: string | null = null;
  let run: number[] = [];
  for (let i = 0; i < list.length; i++) {
    const file = (list[i] as Diagnostic).file;
    if (file === runFile) continue;
    if (runFile !== null) run.push(i);
    runFile = file;
    run = byFile.get(file) ?? [];
    if (run.length === 0) byFile.set(file, run);
    run.push(i);
  }
  run.push(list.length);
  // Read in part: a file whose diagnostics came together before the last file's was read
  // whole (tsc, eslint, ruff, mypy print them so); the last may go on past the cut, and
  // where a file comes back (an output of several tools), any may.
  let interleaved = false;
  for (const runs of byFile.values()) if (runs.length > 2) interleaved = true;
  // Files the agent did not edit, seen for the first time (no record), unless none had any
  // before (noneBefore): those as in the last commit may have held their diagnostics
  // before this session's edits (the pre-existing lint errors of a project an agent starts
  // in), or an edit elsewhere brought them (a type it changed). One git call for them all.
  let firstSeenClean: Set<string> | null = null;
  if (!fromCheck && !noneBefore) {
    const firstSeen: string[] = [];
    for (const file of byFile.keys())
      if (file !== "" && !edited.has(file) && before.get(file) === undefined) firstSeen.push(file);
    if (firstSeen.length > 0) firstSeenClean = filesUnchangedSinceCommit(root, firstSeen);
  }
  const out = input.inPlace ? (list as Diagnostic[]) : list.slice();
  const seen = new Map<string, FileEntries>();
  let read = 0;
  let lookups = 0;
  // Nothing to save when every file's record is as stored (the same diagnostics on the
  // same lines): most runs after an edit that touched none of them.
  let changed = false;
  // The edit brought an error into an edited file: the tool may have stopped before its later
  // passes (rustc runs clippy's lints only once the crate compiles, go vet its analyzers once
  // the package type-checks), so what it did not say is no proof of absence.
  let broughtError = false;
  // The names on the lines the edit changed, read once when a first sight needs them.
  let changedNames: Set<string> | undefined;
  // The fingerprint's head (see keyHead) of the last diagnostic: a dense output's share a few.
  let headTool = "";
  let headSeverity = "";
  let headCode = "";
  let head = keyHead("", "", "");
  for (const [file, runs] of byFile) {
    let count = 0;
    for (let r = 0; r < runs.length; r += 2) count += (runs[r + 1] as number) - (runs[r] as number);
    const src = read++ < MAX_FILES_READ ? sourceLines(root, file) : null;
    // Each line's lineHash, computed once (many diagnostics share a line); -2 not yet.
    const lineHashes = new Float64Array(src === null ? 0 : src.length + 1).fill(-2);
    const old = before.get(file) ?? null;
    const oldByKey = old === null ? EMPTY_INDEX : indexByKey(old.e);
    const used = new Uint8Array(old === null ? 0 : old.e.length / STRIDE);
    // A record saved from part of an output: what it lacks may have been past that cut.
    const oldPartial = old !== null && isPartialRecord(old.e);
    // This run's record says so too when the file may go on past this cut.
    const partialNow = input.partial === true && (file === runFile || interleaved);
    const entries = new Float64Array((count + (partialNow ? 1 : 0)) * STRIDE);
    let at = 0;
    let committed: Set<number> | null | undefined;
    for (let r = 0; r < runs.length; r += 2)
      for (let i = runs[r] as number, end = runs[r + 1] as number; i < end; i++) {
        // Inline, no call per step but the sums': before the engine has compiled this loop
        // (a hook's fresh process), each call costs more than the work it does.
        const d = list[i] as Diagnostic;
        if (d.tool !== headTool || d.severity !== headSeverity || d.code !== headCode) {
          headTool = d.tool;
          headSeverity = d.severity;
          headCode = d.code;
          head = keyHead(d.tool, d.severity, d.code);
        }
        const key = crc32(d.message, head);
        let text = -1;
        if (src !== null && d.line > 0 && d.line <= src.length) {
          text = lineHashes[d.line] as number;
          if (text === -2) {
            text = lineHash(src[d.line - 1]);
            lineHashes[d.line] = text;
          }
        }
        let introduced: boolean;
        let since: NonNullable<Diagnostic["since"]> = "run";
        let best = -1;
        if (!fromCheck && old !== null) {
          // The unused entry with this key that is this diagnostic: on the same text
          // (nearest line first, the earlier entry on a tie); without texts, on the same line.
          const e = old.e;
          const line = d.line;
          let bestDistance = Number.POSITIVE_INFINITY;
          for (let j = oldByKey.first.get(key) ?? -1; j >= 0; j = oldByKey.next[j] as number) {
            if (used[j]) continue;
            const oldLine = e[j * STRIDE + 1] as number;
            const oldText = e[j * STRIDE + 2] as number;
            if (text !== -1 && oldText !== -1 ? oldText !== text : oldLine !== line) continue;
            const distance = oldLine < line ? line - oldLine : oldLine - line;
            if (distance < bestDistance) {
              best = j;
              bestDistance = distance;
              if (distance === 0) break;
            }
          }
          if (best >= 0) {
            used[best] = 1;
            // The key's chain starts at its first unused entry: a dense output's thousands of
            // one message (matched in order) walked every used one before, n² steps.
            if (oldByKey.first.get(key) === best) {
              let head = oldByKey.next[best] as number;
              while (head >= 0 && used[head]) head = oldByKey.next[head] as number;
              oldByKey.first.set(key, head);
            }
          }
        }
        if (fromCheck) introduced = false;
        else if (best >= 0) {
          const flag = (old as FileEntries).e[best * STRIDE + 3];
          introduced = flag === UNVERIFIED ? false : flag === 1;
          // Told as unverified on an earlier call: still not known to be there before.
          if (flag === UNVERIFIED) since = "unverified-told";
        } else if (old !== null ? !oldPartial : noneBefore) introduced = true;
        else if (
          src !== null &&
          (edited.has(file) || (old === null && firstSeenClean?.has(file) === false))
        ) {
          // Asked once per file (null, a file new since the commit, is an answer too).
          if (committed === undefined)
            committed =
              lookups++ < MAX_COMMIT_LOOKUPS ? linesUnchangedSinceCommit(root, file, src) : null;
          introduced = !(committed?.has(d.line) ?? false) || d.line === 0;
          // A file changed since the commit but not by the edits told (a shell command, the
          // user), before any run read whole: on its unchanged lines, not known either way.
          since = edited.has(file) ? "commit" : "unverified";
        }
        // A first sight of a file the agent did not edit, as in the last commit, unless none
        // had any before (noneBefore): most likely there before, but not known (see
        // firstSeenClean); new when it names code the edit changed (the callers of a changed
        // signature), else saved as not known and told as unverified. Other first sights:
        // new. Past a partial record's cut, in a file the agent did not edit: most likely
        // there (a run that reads more of a long output would tell the agent hundreds of
        // "new" ones it never caused; a tool's later passes), unless it names changed code.
        else if (old === null && firstSeenClean?.has(file) === true) {
          changedNames ??= edited.size === 0 ? new Set() : editedNames(root, edited);
          introduced = namesInMessage(d.message).some((name) => changedNames?.has(name));
          since = "unverified";
        } else if (old !== null && !edited.has(file)) {
          changedNames ??= edited.size === 0 ? new Set() : editedNames(root, edited);
          introduced = namesInMessage(d.message).some((name) => changedNames?.has(name));
          // Not known either way (a later pass's old lint, or the edit's doing): told so.
          since = "unverified";
        } else introduced = old === null;
        if (introduced && d.severity === "error" && edited.has(file)) broughtError = true;
        entries[at++] = key;
        entries[at++] = d.line;
        entries[at++] = text;
        entries[at++] = introduced
          ? 1
          : since === "unverified" || since === "unverified-told"
            ? UNVERIFIED
            : 0;
        if (fromCheck) continue;
        if (input.inPlace) {
          const m = d as { baseline?: "new" | "unchanged"; since?: Diagnostic["since"] };
          m.baseline = introduced ? "new" : "unchanged";
          if (!introduced) m.since = since;
        } else
          out[i] = introduced ? { ...d, baseline: "new" } : { ...d, baseline: "unchanged", since };
      }
    let record = entries;
    if (partialNow) {
      // What the agent's edit brought (or what is not known either way) that this read did
      // not reach (past the cut) stays so: carried over, else the next read past the cut
      // would take it for old.
      const carried = old === null ? 0 : unusedMarked(old.e, used);
      if (carried > 0) {
        record = new Float64Array(entries.length + carried * STRIDE);
        record.set(entries.subarray(0, at));
        const e = (old as FileEntries).e;
        for (let j = 0; j < used.length; j++)
          if (!used[j] && e[j * STRIDE + 3] !== 0)
            for (let k = 0; k < STRIDE; k++) record[at++] = e[j * STRIDE + k] as number;
      }
      record.set(PARTIAL_MARK, at);
    }
    seen.set(file, { e: record });
    if (old === null || !sameRecord(old.e, record)) changed = true;
  }
  // After a run whose edit brought an error, every record it makes is partial and no file is
  // recorded clean: once the error is fixed, what the later passes say (the old lints of files
  // the agent never touched) is judged as past a cut, not told to the agent as its own.
  if (broughtError)
    for (const [file, record] of seen) {
      if (isPartialRecord(record.e)) continue;
      const marked = new Float64Array(record.e.length + STRIDE);
      marked.set(record.e);
      marked.set(PARTIAL_MARK, record.e.length);
      seen.set(file, { e: marked });
      changed = true;
    }
  if (input.save?.(out) === false) return out;
  // Files with none read are not known clean when the output was read in part.
  if (input.partial === true || broughtError) {
    if (changed) updateBaseline(root, callback, seen, known);
    return out;
  }
  if (!wholeRunBefore) changed = true;
  seen.set(WHOLE_RUN, CLEAN);
  // A clean run over files already known clean (most passing runs) leaves nothing to save.
  if (recordClean)
    for (const file of input.files) {
      if (byFile.has(file)) continue;
      // Unknown, or stored with diagnostics (or unreadably): to be saved as clean.
      if (before.get(file)?.e.length !== 0) changed = true;
      seen.set(file, CLEAN);
    }
  if (changed) updateBaseline(root, callback, seen, known);
  return out;
}

const CLEAN: FileEntries = { e: [] };

/**
 * An entry's last number for a diagnostic not known to be the agent's nor to predate its
 * edit (see Diagnostic.since "unverified"): 1 is the agent's, 0 was there before.
 */
const UNVERIFIED = 2;

/**
 * The record, under a name no diagnostic's path has (paths are root-relative, or absolute and
 * normalized: never two slashes), that says a run of the callback was read whole: from then
 * on, a file seen for the first time had no diagnostics in that run's output.
 */
const WHOLE_RUN = "//cpilot: a run read whole";

/**
 * The entry that ends a record saved from part of an output: a key no CRC-32 has (-1), so
 * it never matches a diagnostic. Unmatched diagnostics of such a file are not taken as new.
 */
const PARTIAL_MARK = [-1, -1, -1, 0];

/** How many of a stored record's entries this run matched none of, the agent's or unverified. */
function unusedMarked(e: ArrayLike<number>, used: Uint8Array): number {
  let n = 0;
  for (let j = 0; j < used.length; j++) if (!used[j] && e[j * STRIDE + 3] !== 0) n++;
  return n;
}

function isPartialRecord(e: ArrayLike<number>): boolean {
  return e.length >= STRIDE && e[e.length - STRIDE] === -1;
}

/**
 * Does a file's new record say what the saved one says? The same diagnostics on the same
 * source texts, each as new or old as before; a line number counts only where the text is
 * unknown (matching goes by text): an edit that moved them all down saves nothing, where it
 * rewrote the whole baseline on every hook call.
 */
function sameRecord(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < b.length; i += STRIDE) {
    const text = b[i + 2];
    if (a[i] !== b[i] || a[i + 2] !== text || a[i + 3] !== b[i + 3]) return false;
    if (text === -1 && a[i + 1] !== b[i + 1]) return false;
  }
  return true;
}

function safeRead(root: string, callback: string): SavedBaseline {
  try {
    return readSavedBaseline(root, callback);
  } catch {
    return { bytes: null, legacy: null, version: null };
  }
}

/**
 * Per key, the stored entries that have it, in their order: `first` holds a key's first
 * entry, `next` each entry's next one with the same key (-1 ends). No array per key: a
 * file's thousands of entries cost one map and one typed array.
 */
interface KeyIndex {
  readonly first: Map<number, number>;
  readonly next: Int32Array;
}

const EMPTY_INDEX: KeyIndex = { first: new Map(), next: new Int32Array(0) };

function indexByKey(e: ArrayLike<number>): KeyIndex {
  const count = e.length / STRIDE;
  const first = new Map<number, number>();
  const next = new Int32Array(count);
  // From the last entry back, each becomes its key's head: the chains run in entry order.
  for (let i = count - 1; i >= 0; i--) {
    const key = e[i * STRIDE] as number;
    next[i] = first.get(key) ?? -1;
    first.set(key, i);
  }
  return { first, next };
}
