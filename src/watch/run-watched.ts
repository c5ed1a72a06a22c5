/** `cpilot run -- <agent>` for an agent cpilot has no hooks in: a watcher checks its edits. */
import { basename, dirname, relative } from "node:path";
import { findConfig } from "../config/find.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import type { Outcome } from "../model/outcome.ts";
import { writeErr } from "../platform/stdio.ts";
import { filesLabel, isFailure } from "../ui/render-run.ts";
import { CpilotError } from "../util/errors.ts";
import { RESULTS_FILE } from "./results-file.ts";
import { startWatchSession } from "./watch-session.ts";

export type SpawnAgent = (
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
) => Promise<number>;

export const RESULTS_ENV = "CPILOT_RESULTS_FILE";

/** Returns the agent's exit code; changes still waiting when it exits are checked first. */
export async function runWatched(
  command: string,
  args: string[],
  options: { cwd: string; quietMs: number; spawnAgent: SpawnAgent },
): Promise<number> {
  const configPath = findConfig(options.cwd);
  const config = configPath === null ? null : await loadOrSay(configPath);
  if (config === null) {
    if (configPath === null)
      say("cpilot: no callbacks.config.ts here: the agent runs without checks");
    return options.spawnAgent(command, args, options.cwd, process.env);
  }
  const session = startWatchSession({
    config,
    quietMs: options.quietMs,
    agent: basename(command),
    onBatch: (outcome) => say(batchLine(outcome)),
    onError: (err) => say(`cpilot: watcher: ${err.message}`),
  });
  const results = `${config.root}/${RESULTS_FILE}`;
  say(
    `cpilot: watching ${relative(options.cwd, config.root) || "."} (${session.watchCount()} folder watch${session.watchCount() === 1 ? "" : "es"}); results after each batch in ${RESULTS_FILE}`,
  );
  let code: number;
  try {
    code = await options.spawnAgent(command, args, options.cwd, {
      ...process.env,
      [RESULTS_ENV]: results,
    });
  } finally {
    await session.close();
  }
  say(
    `cpilot: ${session.batches()} batch${session.batches() === 1 ? "" : "es"} checked while ${basename(command)} ran`,
  );
  return code;
}

export function batchLine(outcome: Outcome): string {
  const failed = outcome.runs.filter(isFailure);
  const files = filesLabel(outcome.batch.files.map((f) => f.path));
  const rewrote =
    outcome.resyncs.length > 0 ? `; rewrote ${filesLabel(outcome.resyncs.map((r) => r.path))}` : "";
  if (failed.length > 0) {
    return `cpilot: ✗ ${failed.map((r) => `'${r.callback}'`).join(", ")} failed on ${files}${rewrote} (details: ${RESULTS_FILE})`;
  }
  return `cpilot: ✓ ${outcome.runs.length} run${outcome.runs.length === 1 ? "" : "s"} passed on ${files}${rewrote}`;
}

function say(line: string): void {
  writeErr(`${line}\n`);
}

async function loadOrSay(path: string): Promise<ResolvedConfig | null> {
  try {
    const { loadCommandConfig } = await import("../config/supervised-load.ts");
    return await loadCommandConfig(path, dirname(path));
  } catch (err) {
    if (err instanceof CpilotError && err.exitCode === 130) throw err; // Ctrl-C while it loaded
    say(
      `cpilot: ${err instanceof Error ? err.message : String(err)}\n(the agent starts anyway, without checks)`,
    );
    return null;
  }
}
