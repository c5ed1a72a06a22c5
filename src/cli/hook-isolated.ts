// A hook call whose config runs the user's code is answered by a child process (this same
// cpilot, `hook <agent>`), so that whatever that code does — a top-level await that never
// settles, an endless loop, process.exit(), killing itself — this process, the one the
// agent waits on, still answers: within the load deadline, and on SIGTERM. When the child
// cannot answer, the call is answered here as for a broken config: the gate's built-in
// protections decide (no user code runs for them), and a post-edit call gets a note.

import type { HookReply } from "../agents/_shared/hook-reply.ts";
import { gateUndecided } from "../agents/_shared/messages.ts";
import { mayBePreWrite, sniffEvent } from "../agents/_shared/unreadable-input.ts";
import type { Agent } from "../agents/contract.ts";
import { probeTimeoutMs } from "../config/load-probe.ts";
import { parentPidEnv } from "../platform/parent-death.ts";
import { processStop } from "../platform/process-stop.ts";
import { selfArgv } from "../platform/self-command.ts";
import { killGroup } from "../platform/spawn-group.ts";
import { startProcess } from "../platform/start-process.ts";
import { writeFd } from "../platform/stdio.ts";
import { ISOLATED_ENV } from "./hook-isolated-env.ts";

/** Longest wait for the config to load; `CPILOT_CONFIG_LOAD_TIMEOUT_MS` overrides it. */
export const CONFIG_LOAD_TIMEOUT_MS = 10_000;
/** After the config loaded, a pre-write call has this long past its gate plugins' timeouts. */
const GATE_SLACK_MS = 5_000;
/** A child asked to stop (SIGTERM) gets this long to stop its runs and answer. */
const STOP_GRACE_MS = 2_000;

/** What the child tells its parent: one line each, `<nonce> <json>` on its stdout. */
export type ChildReport =
  | { readonly loaded: true; readonly gateBudgetMs?: number }
  | { readonly reply: HookReply };

export function loadTimeoutMs(env: NodeJS.ProcessEnv): number {
  return probeTimeoutMs(env, CONFIG_LOAD_TIMEOUT_MS);
}

/** A report line for the parent (the child's side). */
export function reportLine(nonce: string, report: ChildReport): string {
  return `${nonce} ${JSON.stringify(report)}\n`;
}

type Outcome =
  | { kind: "reply"; reply: HookReply }
  | { kind: "failed"; message: string; afterLoad: boolean };

/**
 * Answer one hook call in a child process, supervised. `fallback(message)` answers the call
 * here as for a config that did not load (the caller runs the adapter without loading it).
 */
export async function answerIsolated(
  agent: Agent,
  stdin: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; configName: string },
  fallback: (message: string) => Promise<HookReply>,
): Promise<HookReply> {
  const outcome = await superviseChild(agent, stdin, options);
  if (outcome.kind === "reply") return outcome.reply;
  // The config loaded and the gate then failed to answer (a plugin that never returns, a
  // process that ended): the gate's plugins and rules did not decide, so the write is denied.
  if (outcome.afterLoad && mayBePreWrite(agent, sniffEvent(stdin))) {
    return {
      json: agent.denyForm(gateUndecided(outcome.message)),
      stderr: `cpilot: ${outcome.message}`,
    };
  }
  return fallback(outcome.message);
}

function superviseChild(
  agent: Agent,
  stdin: string,
  options: { cwd: string; env: NodeJS.ProcessEnv; configName: string },
): Promise<Outcome> {
  const nonce = `cpilot-${crypto.randomUUID()}`;
  const loadMs = loadTimeoutMs(options.env);
  const preWrite = mayBePreWrite(agent, sniffEvent(stdin));
  const [command, ...args] = selfArgv();
  const name = JSON.stringify(options.configName);
  return new Promise<Outcome>((resolve) => {
    let settled = false;
    let loaded = false;
    let pending = "";
    let timer: ReturnType<typeof setTimeout> | undefined;
    const finish = (outcome: Outcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      processStop.removeEventListener("abort", onStop);
      // Nothing of the child outlives the answer: the config's own processes included.
      if (child.pid !== undefined) killGroup(child.pid, "SIGKILL");
      child.stopReading();
      resolve(outcome);
    };
    const arm = (ms: number, message: string): void => {
      clearTimeout(timer);
      timer = setTimeout(() => finish({ kind: "failed", message, afterLoad: loaded }), ms);
    };
    const onReport = (report: ChildReport): void => {
      if ("reply" in report) {
        finish({ kind: "reply", reply: report.reply });
        return;
      }
      loaded = true;
      clearTimeout(timer);
      // A pre-write call still ends within its budget: its gate plugins have timeouts.
      if (preWrite) {
        const ms = (report.gateBudgetMs ?? 0) + GATE_SLACK_MS;
        arm(
          ms,
          `Cannot decide on the write: the gate did not answer within ${ms / 1000} s after config ${name} loaded (a gate plugin that never returns?)`,
        );
      }
    };
    const child = startProcess(command as string, [...args, "hook", agent.name], {
      cwd: options.cwd,
      env: { ...options.env, ...parentPidEnv(), [ISOLATED_ENV]: nonce },
      detached: true,
      stdin,
      onOutput: (chunk, stream) => {
        if (stream === "stderr") {
          writeFd(2, new TextDecoder().decode(chunk));
          return;
        }
        pending += new TextDecoder().decode(chunk);
        let end = pending.indexOf("\n");
        while (end >= 0) {
          const line = pending.slice(0, end);
          pending = pending.slice(end + 1);
          end = pending.indexOf("\n");
          if (!line.startsWith(`${nonce} `)) continue; // the config's own prints
          try {
            onReport(JSON.parse(line.slice(nonce.length + 1)) as ChildReport);
          } catch {
            // a cut line: the exit below reports it
          }
        }
      },
    });
    const onStop = (): void => {
      if (!loaded) {
        finish({
          kind: "failed",
          message: `Cannot load config ${name}: the hook was stopped (SIGTERM) before the config finished loading`,
          afterLoad: false,
        });
        return;
      }
      // Past loading: the child stops its runs on SIGTERM and answers; a child stuck in the
      // user's code is killed after the grace period.
      if (child.pid !== undefined) killGroup(child.pid, "SIGTERM");
      arm(
        STOP_GRACE_MS,
        `Cannot answer: the hook was stopped (SIGTERM) and its process did not end within ${STOP_GRACE_MS / 1000} s`,
      );
    };
    if (processStop.aborted) onStop();
    else processStop.addEventListener("abort", onStop, { once: true });
    arm(
      loadMs,
      `Cannot load config ${name}: it did not finish loading within ${loadMs / 1000} s, so it was stopped (a top-level await that never settles, or an endless loop?)\nhint: run it with \`bun ${options.configName}\` to see where it hangs; CPILOT_CONFIG_LOAD_TIMEOUT_MS changes the limit`,
    );
    child.exited.then(async (end) => {
      await Promise.race([child.outputClosed, new Promise((r) => setTimeout(r, 200))]);
      if (settled) return;
      const how =
        end.error !== null
          ? `could not start (${end.error.message})`
          : end.signal !== null
            ? `was killed by ${end.signal}`
            : `exited with code ${end.code}`;
      finish({
        kind: "failed",
        afterLoad: loaded,
        message: loaded
          ? `Cannot answer the hook call: its process ${how} without an answer after config ${name} loaded (does the config or a callback end the process?)`
          : `Cannot load config ${name}: the process loading it ${how} before the config finished loading (does the config call process.exit(), kill its process, or await a promise that never settles?)`,
      });
    });
  });
}
