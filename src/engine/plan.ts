import type { ResolvedCallback } from "../config/resolve.ts";
import type { EditBatch } from "../model/batch.ts";

/** One run the engine will start: a callback and the files it runs for. */
export interface PlannedRun {
  readonly callback: ResolvedCallback;
  readonly files: readonly string[];
}

export interface PlanOptions {
  /** Run only these callbacks (by name). */
  readonly only?: readonly string[];
  /** Leave these out. */
  readonly skip?: readonly string[];
  /** Only blocking, or only non-blocking callbacks. */
  readonly blocking?: boolean;
  /** Only callbacks that run per file, or once per batch. */
  readonly per?: "batch" | "file";
}

/**
 * Match every active callback's patterns against the batch: one run for the batch with
 * all matched files, or one run per matched file. Deleted files match too (a callback may
 * regenerate an index), and the file list says which are gone through the stdin JSON.
 */
export function planBatch(
  batch: EditBatch,
  callbacks: readonly ResolvedCallback[],
  options: PlanOptions = {},
): PlannedRun[] {
  const planned: PlannedRun[] = [];
  for (const callback of callbacks) {
    if (options.only && !options.only.includes(callback.name)) continue;
    if (options.skip?.includes(callback.name)) continue;
    if (options.blocking !== undefined && callback.blocking !== options.blocking) continue;
    if (options.per !== undefined && callback.per !== options.per) continue;
    const files: string[] = [];
    for (const change of batch.files) {
      if (callback.matcher.matches(change.path)) files.push(change.path);
    }
    if (files.length === 0) continue;
    if (callback.per === "file")
      for (const file of files) planned.push({ callback, files: [file] });
    else planned.push({ callback, files });
  }
  return planned;
}
