/** `cpilot run -- <agent> [args…]`: the agent with cpilot's hooks for this session only. */
import type * as NodeChildProcess from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { RUN_LOG_ENV, readRunLog } from "../agent-session/run-log.ts";
import { agentOfCommand } from "../agents/all-agents.ts";
import type { Agent, SessionHookUrl } from "../agents/contract.ts";
import { findConfig } from "../config/find.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import { SESSION_FLAG, SESSION_HOOKS_ENV } from "../hook/session-hooks.ts";
import { nodeBuiltin } from "../platform/builtin.ts";
import { useLongLivedJit } from "../platform/jit.ts";
import { isCompiledBinary } from "../platform/self-command.ts";
import { startedPids } from "../platform/start-process.ts";
import { writeErr } from "../platform/stdio.ts";
import { renderRunSummary } from "../ui/run-summary.ts";
import { CpilotError } from "../util/errors.ts";

const USAGE =
  "cpilot run -- <agent> [ARGS...]   (Claude Code gets hooks for the session, any other command a watcher unless its hooks call cpilot)";

/** SIGINT/SIGQUIT only when no terminal sent them to the agent already. */
const FORWARDED = ["SIGTERM", "SIGHUP", "SIGINT", "SIGQUIT", "SIGUSR1", "SIGUSR2"] as const;

/**
 * The agent's `sessionArgs` wire cpilot in for this session; the terminal passes through,
 * signals are forwarded, its exit code returned. Other agents and commands go to
 * ./run-other.ts.
 */
export async function runCommand(args: string[], ctx: { cwd: string }): Promise<number> {
  useLongLivedJit(); // it lives as long as the agent's session
  const argv = args[0] === "--" ? args.slice(1) : args;
  const [command, ...rest] = argv;
  if (command === undefined)
    throw new CpilotError("Cannot run an agent: no command given", { hint: `usage: ${USAGE}` });
  const agent = agentOfCommand(command);
  if (agent?.sessionArgs === undefined) {
    const { runOtherAgent } = await import("./run-other.ts");
    return runOtherAgent(args, { cwd: ctx.cwd, spawnAgent });
  }
  const configPath = findConfig(ctx.cwd);
  const config = configPath === null ? null : await loadQuietly(configPath);
  const dir = mkdtempSync(join(tmpdir(), "cpilot-run-"));
  const runLog = join(dir, "runs.jsonl");
  writeFileSync(runLog, "");
  const agentEnv: NodeJS.ProcessEnv = {
    ...process.env,
    [RUN_LOG_ENV]: runLog,
    // hooks installed in the project step aside for the session's own (session-hooks.ts)
    [SESSION_HOOKS_ENV]: agent.name,
  };
  const listener = agent.postsHooks ? await startListener(agent, ctx.cwd, agentEnv) : null;
  try {
    const agentArgs = await agent.sessionArgs({
      command,
      args: rest,
      cwd: ctx.cwd,
      dir,
      config,
      ...(listener !== null ? { hookUrl: listener.hookUrl } : {}),
    });
    const code = await spawnAgent(
      command,
      agentArgs,
      ctx.cwd,
      listener === null
        ? agentEnv
        : { ...bypassProxyForLoopback(agentEnv), [listener.secretEnv]: listener.secret },
    );
    const summary = renderRunSummary(readRunLog(runLog));
    if (summary !== "") writeErr(`${summary}\n`);
    else if (configPath === null)
      writeErr("cpilot: no callbacks.config.ts here, so no callbacks ran\n");
    return code;
  } finally {
    await listener?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** null with a line on stderr when it cannot start: the session then gets command hooks only. `CPILOT_HOOK_HTTP=0` asks for that. */
async function startListener(agent: Agent, cwd: string, env: NodeJS.ProcessEnv) {
  const flag = process.env.CPILOT_HOOK_HTTP;
  if (flag === "0" || flag === "false" || flag === "off") return null;
  try {
    const { startHookListener, SECRET_ENV, SECRET_HEADER } = await import(
      "../hook/http-listener.ts"
    );
    const self = isCompiledBinary() ? [process.execPath] : ["cpilot"];
    const listener = await startHookListener({
      agent,
      cwd,
      env,
      fallback: [...self, "hook", agent.name, SESSION_FLAG],
    });
    const hookUrl: SessionHookUrl = {
      url: listener.url,
      headers: { [SECRET_HEADER]: `$${SECRET_ENV}` },
      allowedEnvVars: [SECRET_ENV],
      addCallEnv: (extra) => listener.addCallEnv(extra),
    };
    return { hookUrl, secretEnv: SECRET_ENV, secret: listener.secret, close: listener.close };
  } catch (err) {
    writeErr(
      `cpilot: Cannot start the hook listener on 127.0.0.1: ${err instanceof Error ? err.message : String(err)}\nhint: the session's hooks start a process per edit instead\n`,
    );
    return null;
  }
}

export function spawnAgent(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<number> {
  // This command owns the terminal's signals while the agent runs (main.ts's would abort
  // under a running agent). They go only once the forwarders are in: with no listener for a
  // moment, a SIGTERM would kill cpilot and leave the agent orphaned.
  const mainHandlers = (["SIGINT", "SIGTERM"] as const).map(
    (signal) => [signal, process.listeners(signal)] as const,
  );
  const { spawn } = nodeBuiltin<typeof NodeChildProcess>("node:child_process");
  const child = spawn(command, args, { cwd, env, stdio: "inherit" });
  // ours: a subreaper scan (a watcher's runs, see stop-tree.ts) must never collect its status
  if (child.pid !== undefined) startedPids.add(child.pid);
  const fromTerminal = process.stdin.isTTY === true;
  const forward = (signal: NodeJS.Signals) => () => {
    // A terminal's Ctrl-C / Ctrl-\ already reached the agent (same process group).
    if (fromTerminal && (signal === "SIGINT" || signal === "SIGQUIT")) return;
    try {
      child.kill(signal);
    } catch {
      // it is gone already
    }
  };
  const handlers = FORWARDED.map((signal) => [signal, forward(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  for (const [signal, listeners] of mainHandlers)
    for (const listener of listeners) process.off(signal, listener as () => void);
  return new Promise((resolvePromise, reject) => {
    child.on("error", (err) => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
      reject(
        new CpilotError(`Cannot start "${command}": ${err.message}`, {
          hint: `is "${command}" installed and on PATH?`,
          exitCode: 127,
          cause: err,
        }),
      );
    });
    child.on("exit", (code, signal) => {
      for (const [s, handler] of handlers) process.off(s, handler);
      resolvePromise(code ?? 128 + signalNumber(signal));
    });
  });
}

/**
 * Claude Code sends an http hook through HTTP(S)_PROXY unless NO_PROXY names its host, and
 * a proxy cannot reach this loopback: every result would be lost without a word.
 */
function bypassProxyForLoopback(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const proxied = ["HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY"].some(
    (name) => env[name] || env[name.toLowerCase()],
  );
  if (!proxied) return env;
  const out = { ...env };
  for (const name of ["NO_PROXY", "no_proxy"]) {
    const list = out[name] ?? "";
    if (!list.split(",").some((host) => host.trim() === "127.0.0.1" || host.trim() === "*"))
      out[name] = list === "" ? "127.0.0.1" : `${list},127.0.0.1`;
  }
  return out;
}

function signalNumber(signal: NodeJS.Signals | null): number {
  return signal === null ? 0 : (constants.signals[signal] ?? 0);
}

async function loadQuietly(path: string): Promise<ResolvedConfig | null> {
  try {
    const { loadCommandConfig } = await import("../config/supervised-load.ts");
    return await loadCommandConfig(path, dirname(path));
  } catch (err) {
    if (err instanceof CpilotError && err.exitCode === 130) throw err; // Ctrl-C while it loaded
    writeErr(
      `cpilot: ${err instanceof Error ? err.message : String(err)}\n(the agent starts anyway; the hooks will report the config problem)\n`,
    );
    return null;
  }
}
