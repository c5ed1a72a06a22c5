import { appendRunLog } from "../agent-session/run-log.ts";
import { recordResult } from "../agent-session/session-state.ts";
import { agentSettings } from "../config/agent-settings.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import { createEngine } from "../engine/engine.ts";
import type { PlanOptions } from "../engine/plan.ts";
import type { EditBatch } from "../model/batch.ts";
import type { Outcome } from "../model/outcome.ts";
import { type AgentReport, reportOutcome } from "../ui/agent/render-outcome.ts";
import { renderStarted } from "../ui/render-run.ts";
import { bookkeep, noteStateTrouble, takeStateTrouble } from "../util/bookkeeping.ts";
import { nestedBatches } from "./nested-edits.ts";

export interface HandleEditsOptions {
  readonly config: ResolvedConfig;
  readonly batch: EditBatch;
  readonly session: string;
  /** Per-file ones, per-batch ones, or both (undefined). */
  readonly per?: PlanOptions["per"];
  readonly extraEnv?: Readonly<Record<string, string>>;
}

/** Blocking callbacks now, non-blocking ones in the background, each result remembered for the session. */
export async function handleEdits(
  options: HandleEditsOptions,
): Promise<{ outcome: Outcome; report: AgentReport }> {
  const { config, batch, session } = options;
  const settings = agentSettings(config.source.agent);
  const engine = createEngine({ root: config.root, config });
  const per = options.per === undefined ? {} : { per: options.per };
  const extraEnv = options.extraEnv ?? {};
  const background = engine.plan(batch, { blocking: false, ...per });
  let notStarted: string | null = null;
  let started: { callback: string; files: readonly string[]; runId: string }[] = [];
  try {
    // Most calls start nothing in the background.
    if (background.length > 0)
      started = (await import("./background.ts")).startBackground(background, {
        root: config.root,
        configPath: config.path,
        session,
        batch,
        extraEnv,
      });
  } catch (err) {
    // a background run is handed its work through a file under .cpilot/
    noteStateTrouble(config.root, err);
    notStarted = [...new Set(background.map((p) => p.callback.name))].join("', '");
  }
  const outcome = await engine.run(batch, { blocking: true, ...per, extraEnv });
  // Made first: bookkeeping that fails is told beside the results, never instead.
  const report = reportOutcome(outcome, { tailLines: settings.tailLines });
  for (const run of started) report.info.push(renderStarted(run.callback, run.files, run.runId));
  if (notStarted !== null) {
    report.failures.push(
      `cpilot: the background callback(s) '${notStarted}' could not be started: cpilot's state folder cannot be written.`,
    );
  }
  for (const run of outcome.runs) {
    const callback = config.callbacks.find((c) => c.name === run.callback);
    bookkeep(config.root, undefined, () =>
      recordResult(config.root, session, run, callback?.per ?? "batch", config.path),
    );
  }
  bookkeep(config.root, undefined, () => appendRunLog(outcome.runs));
  const trouble = takeStateTrouble(config.root);
  if (trouble !== null) report.info.push(trouble);
  for (const nested of await nestedBatches(batch, outcome.leftOut)) {
    const label = `cpilot: in ${nested.folder}/, judged by its own config:`;
    if (typeof nested.config === "string") {
      report.failures.push(`${label} your edits there were not checked: ${nested.config}`);
      continue;
    }
    const done = await handleEdits({ ...options, config: nested.config, batch: nested.batch });
    report.failures.push(...done.report.failures.map((f) => `${label}\n${f}`));
    report.info.push(...done.report.info);
  }
  return { outcome, report };
}
