import type { ResolvedCallback } from "../../config/resolve.ts";
import { isActive, readToggles } from "../../config/state.ts";
import type { ResolvedHooks } from "../../config/trigger-rules.ts";
import type { EditBatch } from "../../model/batch.ts";
import type { RunResult } from "../../model/outcome.ts";
import { ANY_SESSION, postNotice } from "../../session/inbox.ts";
import type { PlannedRun } from "../plan.ts";
import { hookSlots } from "./limits.ts";
import type { HookInput, HookSink } from "./types.ts";
import { type RunWatcher, watchRun } from "./watch-run.ts";

/** Starts one run of a callback as a hook run (execute-run's executeRun, injected). */
export type LaunchHookRun = (
  planned: PlannedRun,
  extra: { hookInput: HookInput; releaseAtEnd: () => void },
) => Promise<RunResult>;

/**
 * Without an engine (a detached background worker calling executeRun), hook results go
 * to the session inbox, where the agent's next hook or MCP call picks them up.
 */
export function inboxSink(batch: EditBatch): HookSink {
  const session = batch.origin.session ?? ANY_SESSION;
  return {
    runEnded(result) {
      const tail = result.tail.slice(-30);
      postNotice(batch.root, session, {
        kind: "hook-run",
        text: [
          `cpilot: '${result.callback}' (run ${result.id}, started by a hook) ${result.status}: ${result.summary}`,
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
 * Start `name` for the parent's files as a hook run. Enforced here, where the work
 * starts: the target exists and is enabled, the depth stays within the limit, and the run
 * holds a hook slot (a semaphore, per process) from before it starts until its process
 * ends, so at most `maxConcurrent` hook runs are alive at once.
 */
export async function startHookRun(options: {
  name: string;
  input: HookInput;
  hooks: ResolvedHooks<ResolvedCallback>;
  files: readonly string[];
  root: string;
  sink: HookSink;
  launch: LaunchHookRun;
}): Promise<RunResult | null> {
  const { name, input, hooks, sink } = options;
  const from = `${input.rule} hook of '${input.parentCallback}' (run ${input.parentRunId})`;
  const target = hooks.lookup(name);
  if (target === undefined) {
    sink.note(`${from} did not start '${name}': no callback has that name`);
    return null;
  }
  if (!isActive(target, readToggles(options.root))) {
    sink.note(`${from} did not start '${name}': it is disabled`);
    return null;
  }
  if (input.depth > hooks.limits.maxDepth) {
    sink.note(
      `${from} did not start '${name}': hook depth ${input.depth} is over the limit of ${hooks.limits.maxDepth}`,
    );
    return null;
  }
  const release = await hookSlots(options.root, hooks.limits.maxConcurrent).acquire();
  let result: RunResult;
  try {
    result = await options.launch(
      { callback: target, files: options.files },
      { hookInput: input, releaseAtEnd: release },
    );
  } finally {
    release();
  }
  sink.runEnded(result);
  return result;
}

/** A watcher for a run whose callback has hooks; null (and no cost) when it has none. */
export function attachHooks(options: {
  callback: ResolvedCallback;
  planned: PlannedRun;
  runId: string;
  batch: EditBatch;
  batchId: string;
  depth: number;
  sink: HookSink | undefined;
  tail: () => readonly string[];
  stop: (reason: string) => void;
  launch: LaunchHookRun;
}): RunWatcher | null {
  const hooks = options.callback.hooks;
  if (hooks === undefined) return null;
  const sink = options.sink ?? inboxSink(options.batch);
  return watchRun({
    runId: options.runId,
    callback: options.callback.name,
    hooks,
    batch: options.batch,
    batchId: options.batchId,
    depth: options.depth,
    sink,
    tail: options.tail,
    stop: options.stop,
    startRun: (name, input) =>
      startHookRun({
        name,
        input,
        hooks,
        files: options.planned.files,
        root: options.batch.root,
        sink,
        launch: options.launch,
      }),
  });
}
