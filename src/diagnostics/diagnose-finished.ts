import type { ProjectSnapshot } from "../cache/content.ts";
import type { EditBatch } from "../model/batch.ts";
import type { Diagnostic } from "../model/diagnostic.ts";
import type { RunStatus } from "../model/outcome.ts";
import { withColdJit } from "./_cold-jit.ts";
import { HOOK_LOG, type LogBounds, readLog, WHOLE_LOG } from "./_read-log.ts";
import { compareWithBaseline, type ReadBefore } from "./baseline/compare.ts";
import { changedAmong, unreachedFiles } from "./baseline/stops-early.ts";

export interface DiagnoseInput {
  readonly batch: EditBatch;
  readonly callback: string;
  /** The callback's `format`, default "auto". */
  readonly format: string | undefined;
  /** The callback's `report`: "all" leaves every diagnostic unmarked, so agents see all. */
  readonly report?: "new" | "all" | undefined;
  /** Absolute folder the run ran in. */
  readonly cwd: string;
  readonly files: readonly string[];
  /** The callback checks the same things whatever files it is given (see run-scope.ts). */
  readonly wholeProject?: boolean;
  /** The command stops at its first failing unit whatever it prints (see stops-early.ts). */
  readonly commandStops?: boolean;
  /** The callback's definition key (../cache/key.ts): records belong to it. */
  readonly definition?: string;
  /** The content the run read, taken before it started (see compare.ts). */
  readonly readBefore?: ReadBefore;
  /** The project as the run left it (see compare.ts). */
  readonly project?: ProjectSnapshot;
  readonly logPath: string;
  readonly status: RunStatus;
  /** Most diagnostics read from the output (see parse-output.ts); default all it keeps. */
  readonly limit?: number;
  /** How much of the log is read; default WHOLE_LOG. */
  readonly bounds?: LogBounds;
}

/** A finished run's diagnostics, and whether its output held more than were read. */
export interface Diagnosed {
  readonly diagnostics: Diagnostic[];
  readonly cut: boolean;
  /** Edited files a failed run stopped before reaching (see stops-early.ts). */
  readonly unreached: string[];
  /** The tool printed only some of its diagnostics (see parse-output.ts). */
  readonly hidden?: true;
}

/**
 * Diagnostics a hook call reads from one run's output, at most: each costs a hook's fresh
 * process some work (a regex match, an object, a fingerprint, a match against the
 * baseline, a sort key), which a dense output pays on every call (scripts/bench-diagnostics.ts
 * measures it). An agent is shown ~40 of them in full
 * anyway; past these, it is told that more are in the log. `cpilot check`, MCP and the
 * exports read up to MAX_DIAGNOSTICS.
 */
export const HOOK_DIAGNOSTICS = 1000;

/** What a hook call reads of a run's output: its log's head and tail, and diagnostics in them. */
export const HOOK_READ: Pick<DiagnoseInput, "limit" | "bounds"> = {
  limit: HOOK_DIAGNOSTICS,
  bounds: HOOK_LOG,
};

/** A run that finished (not replaced or stopped): its output says something about the files. */
export function finished(status: RunStatus): boolean {
  return status === "passed" || status === "failed" || status === "timed_out";
}

/**
 * A finished run's diagnostics (`found` in its log) compared with the callback's baseline,
 * which this run then becomes. Never throws: bookkeeping must not cost the reply.
 */
export function markNew(
  input: DiagnoseInput,
  found: Diagnostic[],
  cut = false,
  save?: (marked: readonly Diagnostic[]) => boolean,
): Diagnostic[] {
  const { status, batch } = input;
  // A cut-off run, or a failure cpilot cannot read (a crash), says nothing about the files.
  if (status === "timed_out" || (status === "failed" && found.length === 0)) return found;
  try {
    const marked = compareWithBaseline({
      root: batch.root,
      callback: input.callback,
      diagnostics: found,
      files: input.files,
      edited: new Set(batch.files.filter((f) => f.kind !== "deleted").map((f) => f.path)),
      fromCheck: batch.origin.surface === "check",
      checksWholeProject: input.wholeProject === true,
      definition: input.definition ?? "",
      ...(input.readBefore ? { readBefore: input.readBefore } : {}),
      ...(input.project ? { project: input.project } : {}),
      failed: status === "failed",
      ...(input.commandStops ? { stopsEarly: true } : {}),
      // `found` is the caller's own parse; "all" shows them unmarked, so copies are marked.
      inPlace: input.report !== "all",
      // Part of the output unread, or a failure that names no file (tsc's "error TS5112:
      // tsconfig.json is present but…", a crash with a stack): what was read is compared,
      // nothing is saved, so its files are not recorded as clean.
      partial: cut || (status === "failed" && !namesAFile(found)),
      ...(save ? { save } : {}),
    });
    return input.report === "all" ? found : marked;
  } catch {
    return found;
  }
}

/** Errors among them, every one already there before the edit (or not known to be new). */
function nothingNew(marked: readonly Diagnostic[]): boolean {
  let errors = false;
  for (const d of marked) {
    if (d.baseline !== "unchanged") return false;
    if (d.severity === "error") errors = true;
  }
  return errors;
}

function namesAFile(found: readonly Diagnostic[]): boolean {
  for (const d of found) if (d.file !== "") return true;
  return false;
}

/**
 * The engine's step after a run: its diagnostics, read from its whole log (bounded),
 * compared with the callback's baseline (which this run then becomes). A run that printed
 * nothing (most passing runs), or whose callback says `format: "none"`, is not parsed, so
 * the output parsers are not even loaded on that hook call. Undefined for a run that did
 * not finish (replaced, stopped). Never throws: bookkeeping must not cost the reply.
 * ./diagnose-run.ts is the same, synchronous.
 */
export async function diagnoseFinishedRun(input: DiagnoseInput): Promise<Diagnosed | undefined> {
  if (!finished(input.status)) return undefined;
  const first = await readDiagnostics(input);
  if (first === null) return { diagnostics: [], cut: false, unreached: [] };
  let read = first;
  // A hook call's cut read saves nothing: the records it would save for a file it may not
  // have read whole leave what lies past the cut unknown, and an error printed there later
  // (the agent's, from an edit elsewhere or a shell command) would read as old. When all it
  // read was there before the edit, the rest of the output may hold what the edit brought
  // (an error printed after 1,000 old ones): it reads the output as `cpilot check` does
  // before telling the agent that the failure is not its own, and saves that. The full read
  // costs only while all a dense, failing output shows is old; when it shows something new,
  // the agent is told and the failure blocks anyway.
  // (A passing run blocks nothing: its cut read is saved as before, marked partial.)
  const hookCut = first.cut && input.bounds !== undefined && input.status === "failed";
  const readMore = (marked: readonly Diagnostic[]) => hookCut && nothingNew(marked);
  let marked = withColdJit(() => markNew(input, first.found, first.cut, () => !hookCut));
  if (readMore(marked)) {
    const { bounds: _bounds, limit: _limit, ...rest } = input;
    const whole = await readDiagnostics(rest);
    if (whole !== null) {
      read = whole;
      marked = withColdJit(() => markNew(input, whole.found, whole.cut));
    }
  }
  const unreached = unreachedFiles(
    marked,
    changedAmong(input.batch, input.files, input.project),
    input.status === "failed",
    { hidden: read.hidden === true, commandStops: input.commandStops === true },
  );
  return {
    diagnostics: marked,
    cut: read.cut,
    unreached,
    ...(read.hidden ? { hidden: true } : {}),
  };
}

/** A run's diagnostics as parsed from its log within the input's bounds; null when unreadable. */
async function readDiagnostics(
  input: DiagnoseInput,
): Promise<{ found: Diagnostic[]; cut: boolean; hidden?: true } | null> {
  try {
    // `format: "none"` reads nothing: its log is not even read.
    const read =
      input.format === "none" ? null : await readLog(input.logPath, input.bounds ?? WHOLE_LOG);
    const log = read?.text ?? "";
    // A log whose middle was skipped may hold more than was read, however little that was.
    const skipped = read?.skipped === true;
    if (log === "") return { found: [], cut: skipped };
    const { parseOutput } = await import("./parse-output.ts");
    const parsed = withColdJit(() =>
      parseOutput(log, {
        root: input.batch.root,
        cwd: input.cwd,
        format: input.format,
        limit: input.limit,
      }),
    );
    return {
      found: parsed.diagnostics,
      cut: skipped || parsed.cut,
      ...(parsed.hidden ? { hidden: true } : {}),
    };
  } catch {
    return null;
  }
}
