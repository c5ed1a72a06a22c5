/**
 * `cpilot run -- <agent>` for agents that cannot take hooks for one session: one whose hooks
 * already call cpilot just runs; anything else runs under the watcher. Gemini CLI cannot: the only
 * settings file it takes from the environment must be root-owned in folders no one else can write.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { RUN_LOG_ENV, readRunLog } from "../agent-session/run-log.ts";
import { agentOfCommand } from "../agents/all-agents.ts";
import { findConfig } from "../config/find.ts";
import { writeErr } from "../platform/stdio.ts";
import { renderRunSummary } from "../ui/run-summary.ts";
import { CpilotError } from "../util/errors.ts";
import { STATE, stateRelative } from "../util/state-layout.ts";
import { runWatched, type SpawnAgent } from "../watch/run-watched.ts";
import { DEFAULT_QUIET_MS } from "../watch/watch-session.ts";

const USAGE = "cpilot run [--quiet-ms MS] -- <agent command> [ARGS...]";

function takeOptions(args: string[]): { quietMs: number; argv: string[] } {
  let quietMs = Number(process.env.CPILOT_WATCH_QUIET_MS) || DEFAULT_QUIET_MS;
  let i = 0;
  while (i < args.length && args[i] !== "--") {
    const arg = args[i] as string;
    const value =
      arg === "--quiet-ms" ? args[++i] : arg.startsWith("--quiet-ms=") ? arg.slice(11) : undefined;
    if (value === undefined) break;
    const ms = Number(value);
    if (!Number.isFinite(ms) || ms < 0)
      throw new CpilotError(`Cannot use --quiet-ms "${value}": not a number of milliseconds`, {
        hint: `usage: ${USAGE}`,
      });
    quietMs = ms;
    i++;
  }
  return { quietMs, argv: args[i] === "--" ? args.slice(i + 1) : args.slice(i) };
}

export async function runOtherAgent(
  args: string[],
  ctx: { cwd: string; spawnAgent: SpawnAgent },
): Promise<number> {
  const { quietMs, argv } = takeOptions(args);
  const [command, ...rest] = argv;
  if (command === undefined)
    throw new CpilotError("Cannot run an agent: no command given", { hint: `usage: ${USAGE}` });
  const agent = agentOfCommand(command);
  const configPath = findConfig(ctx.cwd);
  const root = configPath === null ? ctx.cwd : dirname(configPath);
  const home = process.env.HOME || homedir();
  const places = agent === undefined ? [] : await agent.hookPlaces(root, home, process.env);
  // hooks the agent runs: written, and not skipped by it (or skipped only without an argument
  // given)
  const live = places.filter(
    (p) =>
      p.wired &&
      (p.inactive === undefined ||
        (p.inactive.bypassArg !== undefined && rest.includes(p.inactive.bypassArg))),
  );
  if (live.length > 0) return runWithHooks(command, rest, ctx, configPath === null);
  const skipped = places.find((p) => p.wired && p.inactive !== undefined)?.inactive;
  if (agent !== undefined && skipped !== undefined) {
    writeErr(
      `cpilot: ${skipped.reason}, so a watcher checks its edits and the results go to ${stateRelative(STATE.lastResults)}; to send them straight to the model:\n$ ${skipped.step}\n`,
    );
  } else if (agent !== undefined) {
    writeErr(
      `cpilot: ${agent.name}'s hooks do not call cpilot here, so a watcher checks its edits and the results go to ${stateRelative(STATE.lastResults)}; \`cpilot install ${agent.name}\` sends them straight to the model\n`,
    );
  }
  return runWatched(command, rest, { cwd: ctx.cwd, quietMs, spawnAgent: ctx.spawnAgent });
}

async function runWithHooks(
  command: string,
  args: string[],
  ctx: { cwd: string; spawnAgent: SpawnAgent },
  noConfig: boolean,
): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "cpilot-run-"));
  const runLog = join(dir, "runs.jsonl");
  writeFileSync(runLog, "");
  try {
    const code = await ctx.spawnAgent(command, args, ctx.cwd, {
      ...process.env,
      [RUN_LOG_ENV]: runLog,
    });
    const summary = renderRunSummary(readRunLog(runLog));
    if (summary !== "") writeErr(`${summary}\n`);
    else if (noConfig) writeErr("cpilot: no callbacks.config.ts here, so no callbacks ran\n");
    return code;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
