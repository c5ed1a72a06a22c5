import type { ResolvedCallback } from "../../config/resolve.ts";
import type { ResolvedAction, ResolvedTriggers } from "../../config/trigger-rules.ts";
import type { TriggerEvent, TriggerOrigin } from "../../config/types.ts";
import type { EditBatch } from "../../model/batch.ts";
import type { RunResult } from "../../model/outcome.ts";

/** Where trigger results go: the engine's Outcome, or the session inbox when there is none. */
export interface TriggerSink {
  /** A run that a trigger started has finished. */
  runEnded(result: RunResult): void;
  /** Worth telling the agent: a fire refused by a limit, an action that threw. */
  note(text: string): void;
}

/** What a run that a trigger started knows about why (env `CP_HOOK_*`, stdin `hook`). */
export type TriggerInput = TriggerOrigin;

/** One run under watch: what trigger evaluation and actions need from execute-run. */
export interface WatchedRun {
  readonly runId: string;
  readonly callback: string;
  readonly triggers: ResolvedTriggers<ResolvedCallback>;
  readonly batch: EditBatch;
  readonly batchId: string;
  readonly depth: number;
  readonly sink: TriggerSink;
  /** The run's last lines so far. */
  tail(): readonly string[];
  /** Stop the run's process group (or abort its function), saying why. */
  stop(reason: string): void;
  /** Start another callback for this run's files, as a trigger run; null when refused. */
  startRun(callback: string, input: TriggerInput): Promise<RunResult | null>;
}

/** One firing of a rule, ready for its action. */
export interface Fire {
  readonly trigger: TriggerEvent;
  readonly rule: string;
  readonly action: ResolvedAction;
  readonly lines: readonly string[];
  /** Lines past the collected ones (still in the log). */
  readonly more: number;
  /** What happened, for the notice head: `printed a line matching /x/`. */
  readonly event: string;
  readonly result?: RunResult;
}
