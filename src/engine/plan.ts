import type { ResolvedCallback } from "../config/resolve.ts";
import type { EditBatch } from "../model/batch.ts";

export interface PlannedRun {
  readonly callback: ResolvedCallback;
  readonly files: readonly string[];
}

export interface PlanOptions {
  readonly only?: readonly string[];
  readonly skip?: readonly string[];
  readonly blocking?: boolean;
  readonly per?: "batch" | "file";
}

/**
 * Match every active callback's patterns against the batch. Deleted files match too (a
 * callback may regenerate an index); the stdin JSON says which are gone.
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
