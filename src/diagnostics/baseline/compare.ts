import { contentIds, headBlobs, NO_CONTENT, ProjectSnapshot } from "../../cache/content.ts";
import type { Diagnostic } from "../../model/diagnostic.ts";
import { linesUnchangedSinceCommit } from "./_committed.ts";
import {
  fingerprint,
  idOf,
  idRecord,
  isIncomplete,
  makeRecord,
  RecordMatcher,
  sameRecord,
  textOf,
} from "./_entries.ts";
import {
  fileKey,
  lastSeenKey,
  shortDefinition,
  toldKey,
  treeFileKey,
  treeKey,
} from "./_record-keys.ts";
import { sourceLines } from "./_source-lines.ts";
import { stoppedEarly } from "./stops-early.ts";
import {
  type Baseline,
  decodeSaved,
  type FileEntries,
  knownCleanInSaved,
  MAX_ENTRIES,
  readSavedBaseline,
  type SavedBaseline,
  updateBaseline,
} from "./store.ts";

const FEW_FILES = 16;
/** Files read for their line texts per run; diagnostics in more files match by line. */
const MAX_FILES_READ = 300;
const MAX_COMMIT_LOOKUPS = 20;

export interface CompareInput {
  readonly root: string;
  readonly callback: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly files: readonly string[];
  /** Empty for `cpilot check`. */
  readonly edited: ReadonlySet<string>;
  /** `cpilot check`: the person's own state; outside git it moves the content that stands for HEAD's. */
  readonly fromCheck: boolean;
  /** `tsc -p .`-like: what it finds in a file depends on the whole project, so it is recorded under that. */
  readonly checksWholeProject?: boolean;
  readonly definition?: string;
  /** Taken before the run: content that differs now is not recorded. */
  readonly readBefore?: ReadBefore;
  readonly project?: ProjectSnapshot;
  readonly failed?: boolean;
  readonly stopsEarly?: boolean;
  readonly inPlace?: boolean;
  /** Only part of the output was read, or a failed run named no file: no file is recorded clean. */
  readonly partial?: boolean;
  /** False when the caller will read more of the output and compare again. Default yes. */
  readonly save?: (marked: readonly Diagnostic[]) => boolean;
}

/**
 * Mark each diagnostic "new" or "unchanged": unchanged only when the same check found it on
 * the content its file had before the agent's edits (HEAD's; for a whole-project check, the
 * project as in HEAD). Without such a record it is "unverified", or new on a line the edit
 * changed. Then record this run's findings. Saving is best effort and never throws.
 */
export function compareWithBaseline(input: CompareInput): Diagnostic[] {
  const { root, callback } = input;
  const list = input.diagnostics;
  const definition = shortDefinition(input.definition ?? "");
  const whole = input.checksWholeProject === true;
  const byFile = groupByFile(list);
  const complete =
    input.partial !== true &&
    !(input.failed === true && (input.stopsEarly === true || stoppedEarly(list)));

  const saved = safeRead(root, callback);
  const project = input.project ?? new ProjectSnapshot(root);
  const tree = whole ? project.key() : null;
  if (list.length === 0 && complete) {
    // A clean run over content already recorded clean (most hook calls): nothing to decode.
    const known =
      tree !== null
        ? [treeKey(definition, tree)]
        : input.files.length <= FEW_FILES
          ? [...contentIds(root, input.files)].map(([file, id]) => fileKey(definition, id, file))
          : null;
    if (known !== null && knownCleanInSaved(saved, known)) return [];
  }
  const records = decodeSaved(saved);
  // A project unchanged since the run's key was made is listed by the look that made it.
  const before = input.readBefore;
  const listed =
    before?.project !== undefined && tree !== null && before.whole === tree
      ? before.project
      : project;
  const inputs = whole
    ? wholeInputs(root, byFile, listed, headRecorded(records, definition, project))
    : contentIds(root, [...input.files, ...byFile.keys()], project);

  const out = input.inPlace ? (list as Diagnostic[]) : list.slice();
  const judge = new Judge(input, records, definition, inputs, tree, byFile, project);
  for (const [file, indexes] of byFile) {
    const lines = judge.linesOf(file);
    const decide = judge.forFile(file, lines);
    for (const i of indexes) {
      const d = list[i] as Diagnostic;
      const verdict = decide(d, fingerprint(d), textOf(lines, d.line));
      if (input.inPlace) {
        const m = d as { baseline?: "new" | "unchanged"; since?: Diagnostic["since"] };
        m.baseline = verdict === "new" ? "new" : "unchanged";
        if (verdict !== "new") m.since = verdict;
      } else
        out[i] =
          verdict === "new"
            ? { ...d, baseline: "new" }
            : { ...d, baseline: "unchanged", since: verdict };
    }
  }
  // `cpilot check` tells, it does not remember what it told.
  if (!input.fromCheck) judge.rememberTold(out);
  if (input.save?.(out) === false) return out;
  record(
    input,
    records,
    saved,
    definition,
    inputs,
    tree,
    byFile,
    complete,
    judge.told,
    judge.haveHead,
  );
  return out;
}

export interface ReadBefore {
  readonly read: Readonly<Record<string, string>>;
  readonly whole: string | null;
  /** The look at the project `whole` was taken from. */
  readonly project?: ProjectSnapshot;
}

type Verdict = "new" | "run" | "unverified" | "unverified-told";

class Judge {
  readonly told = new Map<string, FileEntries>();
  private readonly base: Map<string, string>;
  readonly haveHead: boolean;
  private readonly baseTree: string | null;
  private read = 0;
  private lookups = 0;

  constructor(
    private readonly input: CompareInput,
    private readonly records: Baseline,
    private readonly definition: string,
    private readonly inputs: ReadonlyMap<string, string>,
    private readonly tree: string | null,
    byFile: ReadonlyMap<string, number[]>,
    project: ProjectSnapshot,
  ) {
    const files = [...byFile.keys()].filter((f) => f !== "" && !f.startsWith("/"));
    const base = headBlobs(input.root, files);
    this.haveHead = base !== null && project.tree() !== null;
    this.base = base ?? new Map();
    this.baseTree = tree === null ? null : project.tree();
  }

  linesOf(file: string): string[] | null {
    return this.read++ < MAX_FILES_READ ? sourceLines(this.input.root, file) : null;
  }

  forFile(
    file: string,
    lines: readonly string[] | null,
  ): (d: Diagnostic, key: number, text: number) => Verdict {
    const now = this.inputs.get(file) ?? NO_CONTENT;
    const { definition, records } = this;
    const before = this.haveHead
      ? (this.base.get(file) ?? NO_CONTENT)
      : (idOf(records.get(lastSeenKey(definition, file))) ?? NO_CONTENT);
    // What an agent was told before informs it now; `cpilot check` tells everything again.
    const toldRecord = this.input.fromCheck
      ? undefined
      : records.get(toldKey(definition, now, file));
    const told = new RecordMatcher(toldRecord ?? { e: [] });
    const unverified = (d: Diagnostic, key: number, text: number): Verdict =>
      told.take(key, d.line, text) ? "unverified-told" : "unverified";
    // A message about no file, or a file outside the project: nothing to compare with.
    if (file === "" || file.startsWith("/")) return unverified;

    if (this.tree !== null) {
      // Whole-project: the project as in HEAD is the before; this run read it when nothing differs.
      if (this.baseTree !== null && this.tree === this.baseTree) return () => "run";
      const head =
        this.baseTree === null ? undefined : records.get(treeKey(definition, this.baseTree));
      const inHead =
        head === undefined || this.baseTree === null
          ? undefined
          : records.get(treeFileKey(definition, this.baseTree, file));
      // A run over HEAD's project that stopped early is silent on the files it never reached.
      if (head !== undefined && (inHead !== undefined || !isIncomplete(head))) {
        const matcher = new RecordMatcher(inHead ?? { e: [] });
        return (d, key, text) =>
          matcher.take(key, d.line, text)
            ? "run"
            : inHead !== undefined && isIncomplete(inHead)
              ? unverified(d, key, text)
              : "new";
      }
      // Not known for the whole project: the file's own content before, as some run saw it.
      // Absent there, the edit brought it; present, it may come from another state: not known.
      const seen =
        before === NO_CONTENT ? undefined : records.get(fileKey(definition, before, file));
      if (seen !== undefined) {
        const matcher = new RecordMatcher(seen);
        return (d, key, text) =>
          matcher.take(key, d.line, text)
            ? unverified(d, key, text)
            : isIncomplete(seen)
              ? unverified(d, key, text)
              : "new";
      }
      return this.noRecord(file, lines, before, unverified);
    }

    // A check of the files it is given: what it finds in a file depends on that file.
    if (before !== NO_CONTENT && now === before) return () => "run";
    const rec = before === NO_CONTENT ? undefined : records.get(fileKey(definition, before, file));
    if (rec !== undefined) {
      const matcher = new RecordMatcher(rec);
      return (d, key, text) =>
        matcher.take(key, d.line, text)
          ? "run"
          : isIncomplete(rec)
            ? unverified(d, key, text)
            : "new";
    }
    return this.noRecord(file, lines, before, unverified);
  }

  /** A file HEAD lacks had nothing; on a line the agent changed it is its own; the rest is not known. */
  private noRecord(
    file: string,
    lines: readonly string[] | null,
    before: string,
    unverified: (d: Diagnostic, key: number, text: number) => Verdict,
  ): (d: Diagnostic, key: number, text: number) => Verdict {
    if (before === NO_CONTENT && this.haveHead) return () => "new";
    if (!this.input.edited.has(file) || lines === null) return unverified;
    const same =
      this.lookups++ < MAX_COMMIT_LOOKUPS
        ? linesUnchangedSinceCommit(this.input.root, file, lines)
        : null;
    return (d, key, text) =>
      same !== null && d.line > 0 && same.has(d.line) ? unverified(d, key, text) : "new";
  }

  rememberTold(marked: readonly Diagnostic[]): void {
    const byFile = new Map<string, Diagnostic[]>();
    for (const d of marked)
      if (d.since === "unverified" || d.since === "unverified-told") {
        const list = byFile.get(d.file);
        if (list === undefined) byFile.set(d.file, [d]);
        else list.push(d);
      }
    for (const [file, ds] of byFile) {
      const id = this.inputs.get(file) ?? NO_CONTENT;
      if (id === NO_CONTENT && file !== "") continue;
      const lines = file === "" ? null : sourceLines(this.input.root, file);
      this.told.set(toldKey(this.definition, id, file), makeRecord(ds, lines, true));
    }
  }
}

function groupByFile(list: readonly Diagnostic[]): Map<string, number[]> {
  const byFile = new Map<string, number[]>();
  for (let i = 0; i < list.length; i++) {
    const file = (list[i] as Diagnostic).file;
    const indexes = byFile.get(file);
    if (indexes === undefined) byFile.set(file, [i]);
    else indexes.push(i);
  }
  return byFile;
}

/** Is the project as in HEAD recorded for this check? Then a file equal to HEAD's is judged by that record. */
function headRecorded(records: Baseline, definition: string, project: ProjectSnapshot): boolean {
  const head = project.tree();
  const rec = head === null ? undefined : records.get(treeKey(definition, head));
  return rec !== undefined && !isIncomplete(rec);
}

/** Every file with its content; only those that differ from HEAD and those with diagnostics when HEAD's project is recorded. */
function wholeInputs(
  root: string,
  byFile: ReadonlyMap<string, number[]>,
  project: ProjectSnapshot,
  headKnown: boolean,
): Map<string, string> {
  const all = headKnown ? project.changed() : project.content(MAX_ENTRIES);
  const copy = all === null ? null : new Map(all);
  const own = contentIds(
    root,
    [...byFile.keys()].filter((f) => f !== "" && !f.startsWith("/") && !copy?.has(f)),
  );
  if (copy === null) return own;
  for (const [file, id] of own) copy.set(file, id);
  return copy;
}

/**
 * Save what this run found under the content it read. An incomplete run records only the
 * files it named, marked as possibly lacking more, and never one clean; the last file of an
 * output read in part is not recorded.
 */
function record(
  input: CompareInput,
  records: Baseline,
  saved: SavedBaseline,
  definition: string,
  inputs: ReadonlyMap<string, string>,
  tree: string | null,
  byFile: ReadonlyMap<string, number[]>,
  complete: boolean,
  told: ReadonlyMap<string, FileEntries>,
  withHead: boolean,
): void {
  const list = input.diagnostics;
  const seen = new Map<string, FileEntries>();
  let changed = false;
  const before = input.readBefore;
  // The project changed while a whole-project check ran: its findings belong to neither content.
  if (before !== undefined && tree !== null && before.whole !== null && before.whole !== tree)
    return;
  const moved = (file: string) => {
    const was = before?.read[file];
    return was !== undefined && was !== inputs.get(file);
  };
  const put = (key: string, entries: FileEntries) => {
    const old = records.get(key);
    // A complete record is not replaced by less.
    if (old !== undefined && !isIncomplete(old) && isIncomplete(entries)) return;
    if (old === undefined || !sameRecord(old, entries)) changed = true;
    seen.set(key, entries);
  };
  const files = [...byFile.keys()];
  const last = files[files.length - 1];
  let read = 0;
  for (const [file, indexes] of byFile) {
    const id = inputs.get(file) ?? NO_CONTENT;
    if (file === "" || id === NO_CONTENT || moved(file)) continue;
    if (input.partial === true && file === last) continue;
    const lines = read++ < MAX_FILES_READ ? sourceLines(input.root, file) : null;
    const entries = makeRecord(
      indexes.map((i) => list[i] as Diagnostic),
      lines,
      complete,
    );
    put(fileKey(definition, id, file), entries);
    if (tree !== null) put(treeFileKey(definition, tree, file), entries);
  }
  if (complete) {
    const clean = makeRecord([], null, true);
    const givenFiles = tree === null ? input.files : [...inputs.keys()];
    if (givenFiles.length <= MAX_ENTRIES)
      for (const file of givenFiles) {
        const id = inputs.get(file) ?? NO_CONTENT;
        if (id !== NO_CONTENT && !byFile.has(file) && !moved(file))
          put(fileKey(definition, id, file), clean);
      }
    if (tree !== null) put(treeKey(definition, tree), clean);
  } else if (tree !== null) {
    // A run that stopped early still read the project: what it reported is kept under that
    // content, marked as possibly lacking more; a file it never reported on is not known.
    put(treeKey(definition, tree), makeRecord([], null, false));
  }
  for (const [key, entries] of told) put(key, entries);
  // Outside git, the before is the content the check first saw, moved on only by
  // `cpilot check`: an agent's later edits stay its own.
  if (!withHead)
    for (const [file, id] of inputs) {
      const key = lastSeenKey(definition, file);
      if (id === NO_CONTENT || !(byFile.has(file) || complete)) continue;
      if (input.fromCheck || records.get(key) === undefined) put(key, idRecord(id));
    }
  if (changed)
    updateBaseline(input.root, input.callback, seen, { files: records, version: saved.version });
}

function safeRead(root: string, callback: string): SavedBaseline {
  try {
    return readSavedBaseline(root, callback);
  } catch {
    return { bytes: null, version: null };
  }
}
