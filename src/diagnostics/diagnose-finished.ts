import type { EditBatch } from "../model/batch.ts";
import type { Diagnostic } from "../model/diagnostic.ts";
import type { RunStatus } from "../model/outcome.ts";
import { withColdJit } from "./_cold-jit.ts";
import { readLog } from "./_read-log.ts";
import { compareWithBaseline } from "./baseline/compare.ts";

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
  readonly logPath: string;
  readonly status: RunStatus;
}

/** A run that finished (not replaced or stopped): its output says something about the files. */
export function finished(status: RunStatus): boolean {
  return status === "passed" || status === "failed" || status === "timed_out";
}

/**
 * A finished run's diagnostics (`found` in its log) compared with the callback's baseline,
 * which this run then becomes. Never throws: bookkeeping must not cost the reply.
 */
export function markNew(input: DiagnoseInput, found: Diagnostic[]): Diagnostic[] {
  const { status, batch } = input;
  // A cut-off run, or a failure cpilot cannot read (a crash), says nothing about the files.
  if (status === "timed_out" || (status === "failed" && found.length === 0)) return found;
  try {
    const marked = compareWithBaseline({
      root: batch.root,
      callback: input.callback,
      diagnostics: found,
      files: input.files,
      edited: new Set(
        batch.origin.surface === "check"
          ? []
          : batch.files.filter((f) => f.kind !== "deleted").map((f) => f.path),
      ),
      fromCheck: batch.origin.surface === "check",
      // `found` is the caller's own parse; "all" shows them unmarked, so copies are marked.
      inPlace: input.report !== "all",
    });
    return input.report === "all" ? found : marked;
  } catch {
    return found;
  }
}

/**
 * The engine's step after a run: its diagnostics, read from its whole log (bounded),
 * compared with the callback's baseline (which this run then becomes). A run that printed
 * nothing (most passing runs), or whose callback says `format: "none"`, is not parsed, so
 * the output parsers are not even loaded on that hook call. Undefined for a run that did
 * not finish (replaced, stopped). Never throws: bookkeeping must not cost the reply.
 * ./diagnose-run.ts is the same, synchronous.
 */
export async function diagnoseFinishedRun(input: DiagnoseInput): Promise<Diagnostic[] | undefined> {
  if (!finished(input.status)) return undefined;
  let found: Diagnostic[];
  try {
    // `format: "none"` reads nothing: its log is not even read.
    const log = input.format === "none" ? "" : await readLog(input.logPath);
    if (log === "") found = [];
    else {
      const { parseDiagnostics } = await import("./parse-output.ts");
      found = withColdJit(() =>
        parseDiagnostics(log, { root: input.batch.root, cwd: input.cwd, format: input.format }),
      );
    }
  } catch {
    return [];
  }
  return withColdJit(() => markNew(input, found));
}
