import type { ProjectSnapshot } from "../cache/content.ts";
import type { EditBatch } from "../model/batch.ts";
import type { Diagnostic } from "../model/diagnostic.ts";
import type { RunStatus } from "../model/outcome.ts";
import { withColdJit } from "./_cold-jit.ts";
import { HOOK_LOG, type LogBounds, readLog, WHOLE_LOG } from "./_read-log.ts";
import { compareWithBaseline, type ReadBefore } from "./baseline/compare.ts";
import { type CommandStop, changedAmong, unreachedFiles } from "./baseline/stops-early.ts";

export interface DiagnoseInput {
  readonly batch: EditBatch;
  readonly callback: string;
  readonly format: string | undefined;
  /** "all" leaves every diagnostic unmarked, so agents see all. */
  readonly report?: "new" | "all" | undefined;
  readonly cwd: string;
  readonly files: readonly string[];
  readonly wholeProject?: boolean;
  /** How the command can stop before files, when it can. */
  readonly commandStops?: CommandStop;
  readonly definition?: string;
  readonly readBefore?: ReadBefore;
  readonly project?: ProjectSnapshot;
  readonly logPath: string;
  readonly status: RunStatus;
  readonly limit?: number;
  readonly bounds?: LogBounds;
}

export interface Diagnosed {
  readonly diagnostics: Diagnostic[];
  readonly cut: boolean;
  readonly unreached: string[];
  readonly hidden?: true;
  readonly stopped?: true;
}

/** What reading the output showed besides its diagnostics. */
export interface OutputRead {
  /** Only part of it was read. */
  readonly cut?: boolean;
  /** The tool said an error kept it from checking the rest. */
  readonly stopped?: boolean;
}

/** A hook pays for every diagnostic it reads in a fresh process; an agent sees a few dozen anyway. */
export const HOOK_DIAGNOSTICS = 1000;

export const HOOK_READ: Pick<DiagnoseInput, "limit" | "bounds"> = {
  limit: HOOK_DIAGNOSTICS,
  bounds: HOOK_LOG,
};

/** Not replaced or stopped: its output says something about the files. */
export function finished(status: RunStatus): boolean {
  return status === "passed" || status === "failed" || status === "timed_out";
}

/** Compared with the callback's baseline, which this run then becomes. Never throws. */
export function markNew(
  input: DiagnoseInput,
  found: Diagnostic[],
  read: OutputRead = {},
  save?: (marked: readonly Diagnostic[]) => boolean,
): Diagnostic[] {
  const { status, batch } = input;
  const cut = read.cut === true;
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
      ...(input.commandStops || read.stopped ? { stopsEarly: true } : {}),
      inPlace: input.report !== "all",
      // A failure that names no file (a crash, a config error): nothing saved, so no file is
      // recorded clean.
      partial: cut || (status === "failed" && !namesAFile(found)),
      ...(save ? { save } : {}),
    });
    return input.report === "all" ? found : marked;
  } catch {
    return found;
  }
}

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
 * A run's diagnostics from its log (bounded), compared with the callback's baseline. A run
 * that printed nothing, or `format: "none"`, loads no parser. Undefined for a run that did
 * not finish. Never throws: bookkeeping must not cost the reply.
 */
export async function diagnoseFinishedRun(input: DiagnoseInput): Promise<Diagnosed | undefined> {
  if (!finished(input.status)) return undefined;
  const first = await readDiagnostics(input);
  if (first === null) return { diagnostics: [], cut: false, unreached: [] };
  let read = first;
  // A hook's cut read of a failing run saves nothing, or an error printed past the cut later
  // would read as old. When all it read was old, it reads the whole output as `cpilot check`
  // does before telling the agent the failure is not its own.
  const hookCut = first.cut && input.bounds !== undefined && input.status === "failed";
  const readMore = (marked: readonly Diagnostic[]) => hookCut && nothingNew(marked);
  let marked = withColdJit(() => markNew(input, first.found, first, () => !hookCut));
  if (readMore(marked)) {
    const { bounds: _bounds, limit: _limit, ...rest } = input;
    const whole = await readDiagnostics(rest);
    if (whole !== null) {
      read = whole;
      marked = withColdJit(() => markNew(input, whole.found, whole));
    }
  }
  const unreached = unreachedFiles(
    marked,
    changedAmong(input.batch, input.files, input.project),
    input.status === "failed",
    {
      hidden: read.hidden === true,
      stopped: read.stopped === true,
      commandStops: input.commandStops,
    },
  );
  return {
    diagnostics: marked,
    cut: read.cut,
    unreached,
    ...(read.hidden ? { hidden: true } : {}),
    ...(read.stopped ? { stopped: true } : {}),
  };
}

async function readDiagnostics(
  input: DiagnoseInput,
): Promise<{ found: Diagnostic[]; cut: boolean; hidden?: true; stopped?: true } | null> {
  try {
    const read =
      input.format === "none" ? null : await readLog(input.logPath, input.bounds ?? WHOLE_LOG);
    const log = read?.text ?? "";
    // A log whose middle was skipped may hold more than was read.
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
      ...(parsed.stopped ? { stopped: true } : {}),
    };
  } catch {
    return null;
  }
}
