import type { Diagnostic } from "../model/diagnostic.ts";
import { withColdJit } from "./_cold-jit.ts";
import { readLogBounded } from "./_read-log.ts";
import { type DiagnoseInput, finished, markNew, type OutputRead } from "./diagnose-finished.ts";
import { parseOutput } from "./parse-output.ts";

export type { DiagnoseInput } from "./diagnose-finished.ts";

/** ./diagnose-finished.ts, synchronous, for the benchmarks. */
export function diagnoseRun(input: DiagnoseInput): Diagnostic[] | undefined {
  if (!finished(input.status)) return undefined;
  return withColdJit(() => {
    let found: Diagnostic[];
    let read: OutputRead = {};
    try {
      const log = readLogBounded(input.logPath, input.bounds);
      const parsed = parseOutput(log.text, {
        root: input.batch.root,
        cwd: input.cwd,
        format: input.format,
        limit: input.limit,
      });
      found = parsed.diagnostics;
      read = { cut: parsed.cut || log.skipped, stopped: parsed.stopped === true };
    } catch {
      return [];
    }
    return markNew(input, found, read);
  });
}
