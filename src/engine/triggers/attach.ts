import { ANY_SESSION, postNotice } from "../../agent-session/inbox.ts";
import type { ResolvedCallback } from "../../config/resolve.ts";
import { isActive, readToggles } from "../../config/state.ts";
import type { ResolvedTriggers } from "../../config/trigger-rules.ts";
import type { EditBatch } from "../../model/batch.ts";
import type { RunResult } from "../../model/outcome.ts";
import type { PlannedRun } from "../plan.ts";
import { triggerSlots } from "./limits.ts";
import type { TriggerInput, TriggerSink } from "./types.ts";
import { type RunWatcher, watchRun } from "./watch-run.ts";

export type LaunchTriggerRun = (
  planned: PlannedRun,
  extra: { triggerInput: TriggerInput; releaseAtEnd: () => void },
) => Promise<RunResult>;

/** Without an engine, trigger results go to the session inbox for the agent's next call. */
export function inboxSink(batch: EditBatch): TriggerSink {
  const session = batch.origin.session ?? ANY_SESSION;
  return {
    runEnded(result) {
      const tail = result.tail.slice(-30);
      postNotice(batch.root, session, {
        kind: "hook-run",
        text: [
          `cpilot: '${result.callback}' (run ${result.id}, started by a trigger) ${result.status}: ${result.summary}`,
          ...tail,
        ].join("\n"),
        runId: result.id,
        failing: result.status === "failed" || result.status === "timed_out",
      });
    },
    note(text) {
      postNotice(batch.root, session, { kind: "hook-note", text: `cpilot: ${text}` });
    },
  };
}

/**
 * Start `name` for the parent's files as a trigger run, enforced where the work starts: the
 * target is enabled, the depth within the limit, and a trigger slot held until it ends.
 */
export async function startTriggerRun(options: {
  name: string;
  input: TriggerInput;
  triggers: ResolvedTriggers<ResolvedCallback>;
  files: readonly string[];
  root: string;
  sink: TriggerSink;
  launch: LaunchTriggerRun;
}): Promise<RunResult | null> {
  const { name, input, triggers, sink } = options;
  const from = `${input.rule} trigger of '${input.parentCallback}' (run ${input.parentRunId})`;
  const target = triggers.lookup(name);
  if (target === undefined) {
    sink.note(`${from} did not start '${name}': no callback has that name`);
    return null;
  }
  if (!isActive(target, readToggles(options.root))) {
    sink.note(`${from} did not start '${name}': it is disabled`);
    return null;
  }
  if (input.depth > triggers.limits.maxDepth) {
    sink.note(
      `${from} did not start '${name}': trigger depth ${input.depth} is over the limit of ${triggers.limits.maxDepth}`,
    );
    return null;
  }
  const release = await triggerSlots(options.root, triggers.limits.maxConcurrent).acquire();
  let result: RunResult;
  try {
    result = await options.launch(
      { callback: target, files: options.files },
      { triggerInput: input, releaseAtEnd: release },
    );
  } finally {
    release();
  }
  sink.runEnded(result);
  return result;
}

/** Null, at no cost, when the run's callback has no triggers. */
export function attachTriggers(options: {
  callback: ResolvedCallback;
  planned: PlannedRun;
  runId: string;
  batch: EditBatch;
  batchId: string;
  depth: number;
  sink: TriggerSink | undefined;
  tail: () => readonly string[];
  stop: (reason: string) => void;
  launch: LaunchTriggerRun;
}): RunWatcher | null {
  const triggers = options.callback.triggers;
  if (triggers === undefined) return null;
  const sink = options.sink ?? inboxSink(options.batch);
  return watchRun({
    runId: options.runId,
    callback: options.callback.name,
    triggers,
    batch: options.batch,
    batchId: options.batchId,
    depth: options.depth,
    sink,
    tail: options.tail,
    stop: options.stop,
    startRun: (name, input) =>
      startTriggerRun({
        name,
        input,
        triggers,
        files: options.planned.files,
        root: options.batch.root,
        sink,
        launch: options.launch,
      }),
  });
}
