import { ANY_SESSION, postNotice } from "../../agent-session/inbox.ts";
import type { TriggerContext } from "../../config/types.ts";
import type { RunResult } from "../../model/outcome.ts";
import { claimFire } from "./limits.ts";
import type { Fire, WatchedRun } from "./types.ts";

const MAX_OUTPUT_CHARS = 64_000;

/** Cut from the front when it is huge. */
export function outputText(fire: Pick<Fire, "lines" | "more">): string {
  let text = fire.lines.join("\n");
  if (text.length > MAX_OUTPUT_CHARS) text = `… [cut]\n${text.slice(-MAX_OUTPUT_CHARS)}`;
  return fire.more > 0 ? `${text}\n… ${fire.more} more lines in the log` : text;
}

export function noticeText(run: WatchedRun, fire: Fire, message: string | undefined): string {
  const head = `cpilot: '${run.callback}' (run ${run.runId}) ${fire.event}`;
  const body = outputText(fire);
  return [
    `${head}${body === "" ? "" : ":"}`,
    ...(message ? [message] : []),
    ...(body === "" ? [] : [body]),
    `(full log: cpilot logs ${run.runId})`,
  ].join("\n");
}

function notify(run: WatchedRun, fire: Fire, text: string): void {
  postNotice(run.batch.root, run.batch.origin.session ?? ANY_SESSION, {
    kind: "hook",
    text,
    runId: run.runId,
    failing: fire.trigger === "onExit" && fire.result?.status !== "passed",
  });
}

function startRun(run: WatchedRun, fire: Fire, callback: string): Promise<RunResult | null> {
  return run.startRun(callback, {
    parentRunId: run.runId,
    parentCallback: run.callback,
    trigger: fire.trigger,
    rule: fire.rule,
    output: outputText(fire),
    depth: run.depth + 1,
  });
}

/** Errors are the caller's to report. */
export async function perform(run: WatchedRun, fire: Fire): Promise<void> {
  const { action } = fire;
  switch (action.kind) {
    case "stop":
      run.stop(`stopped by its ${fire.rule} trigger`);
      return;
    case "notify":
      notify(run, fire, noticeText(run, fire, action.message));
      return;
    case "run":
      await startRun(run, fire, action.callback);
      return;
    case "function": {
      const ctx: TriggerContext = {
        runId: run.runId,
        callback: run.callback,
        trigger: fire.trigger,
        output: outputText(fire),
        lines: fire.lines,
        ...(fire.result ? { exitCode: fire.result.exitCode, status: fire.result.status } : {}),
        session: run.batch.origin.session,
        depth: run.depth,
        stop: () => run.stop(`stopped by its ${fire.rule} trigger`),
        notify: (text) => notify(run, fire, text),
        run: (callback) => {
          // Each run a function starts draws on the budget too.
          const { root, origin } = run.batch;
          if (!claimFire(root, origin.session, run.batchId, run.triggers.limits.sessionBudget)) {
            run.sink.note(budgetNote(run));
            return Promise.resolve(null);
          }
          return startRun(run, fire, callback);
        },
      };
      await action.fn(ctx);
      return;
    }
  }
}

export function budgetNote(run: WatchedRun): string {
  const who = run.batch.origin.session ? `session ${run.batch.origin.session}` : "this batch";
  return `trigger of '${run.callback}' (run ${run.runId}) not fired: ${who} used its budget of ${run.triggers.limits.sessionBudget} trigger fires`;
}
