import { join } from "node:path";
import {
  type CommandStop,
  changedAmong,
  commandStopsEarly,
  unreachedFiles,
} from "../diagnostics/baseline/stops-early.ts";
import type { DiagnoseInput } from "../diagnostics/diagnose-finished.ts";
import type { EditBatch } from "../model/batch.ts";
import type { RunStatus } from "../model/outcome.ts";
import { bookkeep } from "../util/bookkeeping.ts";
import type { PlannedRun } from "./plan.ts";
import { recordOf } from "./record-of.ts";
import { type CacheLookup, writeReplayLog } from "./result-cache.ts";
import { newRunId } from "./run-id.ts";
import { checksWholeProject } from "./run-scope.ts";
import { prepareLog, runsDir, type StoredRun, saveRunRecord } from "./runs-store.ts";

export interface ReplayOptions {
  readonly batch: EditBatch;
  readonly onStart?: (run: { id: string; callback: string; files: readonly string[] }) => void;
  readonly runId?: string;
  readonly releaseAtEnd?: () => void;
}

export type Hit = CacheLookup & { readonly record: NonNullable<CacheLookup["record"]> };

export function isHit(lookup: CacheLookup | null | undefined): lookup is Hit {
  return lookup?.record !== undefined;
}

export function diagnoseInput(
  planned: PlannedRun,
  batch: EditBatch,
  run: Pick<DiagnoseInput, "logPath" | "status" | "wholeProject" | "definition">,
): DiagnoseInput {
  const { callback, files } = planned;
  return {
    batch,
    callback: callback.name,
    format: callback.format,
    report: callback.report,
    cwd: callback.cwd,
    files,
    ...run,
    ...stops(planned, batch.root, run.status),
  };
}

/** Only a failure can have stopped early; finding out may read the tool's install. */
function stops(
  planned: PlannedRun,
  root: string,
  status: RunStatus,
): { commandStops?: CommandStop } {
  const stop =
    status === "failed"
      ? commandStopsEarly(planned.callback.run, planned.callback.cwd, root)
      : undefined;
  return stop === undefined ? {} : { commandStops: stop };
}

/**
 * A run not run: its recorded result for the same check on the same content, its diagnostics
 * judged new or old again for this caller. Loads none of the code that starts processes.
 */
export async function replayRun(
  planned: PlannedRun,
  cache: Hit,
  definition: string,
  options: ReplayOptions,
): Promise<StoredRun> {
  const { callback, files } = planned;
  const root = options.batch.root;
  const id = options.runId ?? newRunId();
  const preparedLog = bookkeep<string | null>(root, null, () => prepareLog(root, id));
  const logPath = preparedLog ?? join(runsDir(root), `${id}.log`);
  const wholeProject = checksWholeProject(callback.run);
  const record = cache.record;
  const startedAt = Date.now();
  options.onStart?.({ id, callback: callback.name, files });
  writeReplayLog(preparedLog, record);
  const found = record.diagnostics.map((d) => ({ ...d }));
  const diagnostics =
    found.length === 0
      ? found
      : (await import("../diagnostics/diagnose-finished.ts")).markNew(
          diagnoseInput(planned, options.batch, {
            logPath,
            status: record.status,
            wholeProject,
            definition,
          }),
          found,
        );
  options.releaseAtEnd?.();
  const unreached = unreachedFiles(
    diagnostics,
    changedAmong(options.batch, files),
    record.status === "failed",
    stops(planned, root, record.status),
  );
  const result: StoredRun = {
    id,
    callback: callback.name,
    files,
    blocking: callback.blocking,
    ...(unreached.length > 0 ? { unreached } : {}),
    status: record.status,
    exitCode: record.exitCode,
    signal: null,
    durationMs: record.durationMs,
    logPath,
    tail: record.tail,
    summary: record.summary,
    successMessage: callback.successMessage,
    diagnostics,
    cached: { key: record.key, at: record.at },
    startedAt,
    per: callback.per,
  };
  bookkeep(root, undefined, () => saveRunRecord(root, recordOf(result)));
  return result;
}
