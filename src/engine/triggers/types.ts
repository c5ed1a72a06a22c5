import type { ResolvedCallback } from "../../config/resolve.ts";
import type { ResolvedAction, ResolvedTriggers } from "../../config/trigger-rules.ts";
import type { TriggerEvent, TriggerOrigin } from "../../config/types.ts";
import type { EditBatch } from "../../model/batch.ts";
import type { RunResult } from "../../model/outcome.ts";

export interface TriggerSink {
  runEnded(result: RunResult): void;
  note(text: string): void;
}

export type TriggerInput = TriggerOrigin;

export interface WatchedRun {
  readonly runId: string;
  readonly callback: string;
  readonly triggers: ResolvedTriggers<ResolvedCallback>;
  readonly batch: EditBatch;
  readonly batchId: string;
  readonly depth: number;
  readonly sink: TriggerSink;
  tail(): readonly string[];
  stop(reason: string): void;
  /** Null when refused. */
  startRun(callback: string, input: TriggerInput): Promise<RunResult | null>;
}

export interface Fire {
  readonly trigger: TriggerEvent;
  readonly rule: string;
  readonly action: ResolvedAction;
  readonly lines: readonly string[];
  readonly more: number;
  readonly event: string;
  readonly result?: RunResult;
}
