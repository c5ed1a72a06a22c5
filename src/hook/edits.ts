import { dirname, join, relative } from "node:path";
import { appendRunLog } from "../agent-session/run-log.ts";
import { recordResult } from "../agent-session/session-state.ts";
import { agentSettings } from "../config/agent-settings.ts";
import { findConfig } from "../config/find.ts";
import { probeTimeoutMs } from "../config/load-probe.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import { loadConfigSupervised } from "../config/supervised-load.ts";
import { createEngine } from "../engine/engine.ts";
import { nestedConfigFolders } from "../engine/nested-configs.ts";
import type { PlanOptions } from "../engine/plan.ts";
import type { EditBatch, FileChange } from "../model/batch.ts";
import type { Outcome } from "../model/outcome.ts";
import { type AgentReport, reportOutcome } from "../ui/agent/render-outcome.ts";
import { renderStarted } from "../ui/render-run.ts";
import { outcomeSeenFrom, pathMove } from "../ui/seen-from.ts";
import { bookkeep, noteStateTrouble, takeStateTrouble } from "../util/bookkeeping.ts";

export interface HandleEditsOptions {
  readonly config: ResolvedConfig;
  readonly batch: EditBatch;
  readonly session: string;
  /** Per-file ones, per-batch ones, or both (undefined). */
  readonly per?: PlanOptions["per"];
  readonly extraEnv?: Readonly<Record<string, string>>;
  /** Where the agent works: the paths it is told are relative to it (the config's root by default). */
  readonly seenFrom?: string;
  /** The caller says which config judged the failures (a package's, inside the root's call). */
  readonly labelled?: true;
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
        ...(options.seenFrom ? { seenFrom: options.seenFrom } : {}),
        ...(options.seenFrom ? { inbox: readerRoot(options.seenFrom, config.root) } : {}),
      });
  } catch (err) {
    // a background run is handed its work through a file under .cpilot/
    noteStateTrouble(config.root, err);
    notStarted = [...new Set(background.map((p) => p.callback.name))].join("', '");
  }
  const outcome = await engine.run(batch, { blocking: true, ...per, extraEnv });
  const seenFrom = options.seenFrom ?? config.root;
  const moved = pathMove(config.root, seenFrom);
  const move = moved ?? ((path: string) => path);
  // judged by a config other than the agent's folder's: each failure says by which
  const label =
    moved !== null && options.labelled !== true && findConfig(seenFrom) !== config.path
      ? `cpilot: judged by ${relative(seenFrom, config.path)}:\n`
      : "";
  // Made first: bookkeeping that fails is told beside the results, never instead.
  const shown = reportOutcome(outcomeSeenFrom(outcome, seenFrom), {
    tailLines: settings.tailLines,
  });
  const report: AgentReport = {
    failures: shown.failures.map((f) => `${label}${f}`),
    info: shown.info,
  };
  for (const run of started)
    report.info.push(renderStarted(run.callback, run.files.map(move), run.runId));
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
    const label = `cpilot: in ${move(nested.folder)}/, judged by its own config:`;
    if (typeof nested.config === "string") {
      report.failures.push(`${label} your edits there were not checked: ${nested.config}`);
      continue;
    }
    const done = await handleEdits({
      ...options,
      config: nested.config,
      batch: nested.batch,
      seenFrom,
      labelled: true,
    });
    report.failures.push(...done.report.failures.map((f) => `${label}\n${f}`));
    report.info.push(...done.report.info);
  }
  return { outcome, report };
}

/**
 * The folder whose inbox an agent working in `dir` reads: its folder's config's (a later call
 * there loads that one), when in the same repository; else `root`.
 */
function readerRoot(dir: string, root: string): string {
  const nearest = findConfig(dir);
  if (nearest === null || pathMove(root, dir) === null) return root;
  return dirname(nearest);
}

/** Longest a package's config may take to load, as for a hook call (CPILOT_CONFIG_LOAD_TIMEOUT_MS overrides). */
const LOAD_TIMEOUT_MS = 10_000;

export interface NestedBatch {
  readonly folder: string;
  /** That folder's config, or why it did not load. */
  readonly config: ResolvedConfig | string;
  /** The edits in the folder, relative to it. */
  readonly batch: EditBatch;
}

/**
 * The edits in folders below `batch.root` that hold their own tracked config: the nearest
 * config judges them, so this config's engine left them out (`leftOut`, when it ran).
 * One shell command or patch can reach several packages; each is checked by its own.
 */
export async function nestedBatches(
  batch: EditBatch,
  leftOut: ReadonlyMap<string, string> | undefined,
): Promise<NestedBatch[]> {
  const out: NestedBatch[] = [];
  for (const folder of nestedConfigFolders(batch.root, batch.files, leftOut)) {
    const prefix = `${folder}/`;
    const files = batch.files
      .filter((f) => f.path.startsWith(prefix))
      .map((f) => ({ ...f, path: f.path.slice(prefix.length) }));
    const root = join(batch.root, folder);
    out.push({ folder, config: await loadNested(root), batch: { ...batch, root, files } });
  }
  return out;
}

/** Some of `files` lie in a folder with its own tracked config. */
export function holdsNested(root: string, files: readonly FileChange[]): boolean {
  return nestedConfigFolders(root, files).length > 0;
}

/** A package's own config, loaded as for an edit there; else why not, in one line. */
export async function loadNested(root: string): Promise<ResolvedConfig | string> {
  const path = findConfig(root);
  if (path === null) return "its config is gone";
  try {
    return await loadConfigSupervised(path, {
      cwd: root,
      timeoutMs: probeTimeoutMs(process.env, LOAD_TIMEOUT_MS),
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return oneLine(message);
  }
}

/** A load error in one line: its first, and the first problem when that line only counts them. */
function oneLine(message: string): string {
  const [first = message, second] = message.split("\n");
  return /\d+ problems?$/.test(first) && second !== undefined
    ? `${first}: ${second.trim()}`
    : first;
}
