// A config that runs the user's code is answered by a child process, so whatever that code
// does (never settles, loops, exits, kills itself), the process the agent waits on still
// answers: within the load deadline, and on SIGTERM. When the child cannot answer, the
// built-in protections decide, as for a broken config.

import { probeTimeoutMs } from "../config/load-probe.ts";
import type { HookAgent, HookReply } from "../model/hook.ts";
import { processStop } from "../platform/process-stop.ts";
import { superviseSelf } from "../platform/supervised-child.ts";
import { ISOLATED_ENV } from "./isolated-env.ts";
import { gateUndecided } from "./messages.ts";
import { mayBePreWrite, sniffEvent } from "./unreadable-input.ts";

/** `CPILOT_CONFIG_LOAD_TIMEOUT_MS` overrides it. */
export const CONFIG_LOAD_TIMEOUT_MS = 10_000;
/** A pre-write's allowance past its gate plugins' timeouts. */
const GATE_SLACK_MS = 5_000;
/** How long a child asked to stop (SIGTERM) has to stop its runs and answer. */
const STOP_GRACE_MS = 2_000;

/** `<nonce> <json>` lines on the child's stdout. */
export type ChildReport =
  | { readonly loaded: true; readonly gateBudgetMs?: number }
  | { readonly reply: HookReply };

export function loadTimeoutMs(env: NodeJS.ProcessEnv): number {
  return probeTimeoutMs(env, CONFIG_LOAD_TIMEOUT_MS);
}

export function reportLine(nonce: string, report: ChildReport): string {
  return `${nonce} ${JSON.stringify(report)}\n`;
}

type Outcome =
  | { kind: "reply"; reply: HookReply }
  | { kind: "failed"; message: string; afterLoad: boolean };

/** `fallback(message)` answers here as for a config that did not load. */
export async function answerIsolated(
  agent: HookAgent,
  stdin: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; configName: string },
  fallback: (message: string) => Promise<HookReply>,
): Promise<HookReply> {
  const outcome = await superviseChild(agent, stdin, options);
  if (outcome.kind === "reply") return outcome.reply;
  // The gate failed to answer after the config loaded: no rule decided, so deny.
  if (outcome.afterLoad && mayBePreWrite(agent, sniffEvent(stdin))) {
    return {
      json: agent.denyForm(gateUndecided(outcome.message)),
      stderr: `cpilot: ${outcome.message}`,
    };
  }
  return fallback(outcome.message);
}

function superviseChild(
  agent: HookAgent,
  stdin: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; configName: string },
): Promise<Outcome> {
  const loadMs = loadTimeoutMs(options.env);
  const preWrite = mayBePreWrite(agent, sniffEvent(stdin));
  const name = JSON.stringify(options.configName);
  let loaded = false;
  const failed = (message: string) => (): Outcome => ({
    kind: "failed",
    message,
    afterLoad: loaded,
  });
  return superviseSelf<Outcome>({
    args: ["hook", agent.name],
    cwd: options.cwd,
    env: options.env,
    stdin,
    nonceEnv: ISOLATED_ENV,
    deadline: {
      ms: loadMs,
      result: failed(
        `Cannot load config ${name}: it did not finish loading within ${loadMs / 1000} s, so it was stopped (a top-level await that never settles, or an endless loop?)\nhint: run it with \`bun ${options.configName}\` to see where it hangs; CPILOT_CONFIG_LOAD_TIMEOUT_MS changes the limit`,
      ),
    },
    onReport: (payload, child) => {
      let report: ChildReport;
      try {
        report = JSON.parse(payload) as ChildReport;
      } catch {
        return; // a cut line: the exit reports it
      }
      if ("reply" in report) {
        child.finish({ kind: "reply", reply: report.reply });
        return;
      }
      loaded = true;
      child.disarm();
      // A pre-write call still ends within its budget: its gate plugins have timeouts.
      if (preWrite) {
        const ms = (report.gateBudgetMs ?? 0) + GATE_SLACK_MS;
        child.arm(
          ms,
          failed(
            `Cannot decide on the write: the gate did not answer within ${ms / 1000} s after config ${name} loaded (a gate plugin that never returns?)`,
          ),
        );
      }
    },
    onExit: (how, child) =>
      child.finish({
        kind: "failed",
        afterLoad: loaded,
        message: loaded
          ? `Cannot answer the hook call: its process ${how} without an answer after config ${name} loaded (does the config or a callback end the process?)`
          : `Cannot load config ${name}: the process loading it ${how} before the config finished loading (does the config call process.exit(), kill its process, or await a promise that never settles?)`,
      }),
    stop: {
      signal: processStop,
      onStop: (child) => {
        if (!loaded) {
          child.finish({
            kind: "failed",
            message: `Cannot load config ${name}: the hook was stopped (SIGTERM) before the config finished loading`,
            afterLoad: false,
          });
          return;
        }
        // The child stops its runs on SIGTERM and answers; one stuck in user code is killed after
        // the grace.
        child.signal("SIGTERM");
        child.arm(
          STOP_GRACE_MS,
          failed(
            `Cannot answer: the hook was stopped (SIGTERM) and its process did not end within ${STOP_GRACE_MS / 1000} s`,
          ),
        );
      },
    },
  });
}
