// A config whose loading runs the user's code is first loaded in a child process (this same
// cpilot, `hook --load-config PATH`) that can be stopped: a config that loops, awaits for
// ever, calls process.exit() or kills its process is found there, within a deadline and
// answering signals, before a long-lived or interactive process (`cpilot mcp`, `cpilot
// check`) imports it on its own thread, where nothing could stop it.

import { basename } from "node:path";
import { parentPidEnv } from "../platform/parent-death.ts";
import { selfArgv } from "../platform/self-command.ts";
import { killGroup } from "../platform/spawn-group.ts";
import { startProcess } from "../platform/start-process.ts";
import { writeFd } from "../platform/stdio.ts";

/** The hidden `cpilot hook` flag of the child: `cpilot hook --load-config PATH`. */
export const PROBE_FLAG = "--load-config";
/** Set in the child; its value is a nonce that marks its report among the config's prints. */
const PROBE_ENV = "CPILOT_CONFIG_PROBE";

export type ProbeResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

/** The deadline: `CPILOT_CONFIG_LOAD_TIMEOUT_MS`, else `fallbackMs`. */
export function probeTimeoutMs(env: NodeJS.ProcessEnv, fallbackMs: number): number {
  const ms = Number(env.CPILOT_CONFIG_LOAD_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : fallbackMs;
}

/**
 * Load the config at `path` in a supervised child: ok when it finished loading within
 * `timeoutMs` (whether or not it is valid: loading it here reports that), else why not.
 * Aborting `signal` stops the child at once.
 */
export function proveConfigLoads(
  path: string,
  options: { timeoutMs: number; cwd: string; env?: NodeJS.ProcessEnv; signal?: AbortSignal },
): Promise<ProbeResult> {
  const nonce = `cpilot-probe-${crypto.randomUUID()}`;
  const name = JSON.stringify(basename(path));
  const [command, ...args] = selfArgv();
  return new Promise<ProbeResult>((resolve) => {
    let settled = false;
    let pending = "";
    const child = startProcess(command as string, [...args, "hook", PROBE_FLAG, path], {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), ...parentPidEnv(), [PROBE_ENV]: nonce },
      detached: true,
      stdin: "",
      onOutput: (chunk, stream) => {
        const text = new TextDecoder().decode(chunk);
        if (stream === "stderr") {
          writeFd(2, text);
          return;
        }
        pending += text;
        if (pending.includes(`${nonce} loaded\n`)) finish({ ok: true });
        else if (pending.length > 4096) pending = pending.slice(-1024);
      },
    });
    const finish = (result: ProbeResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      // Nothing of the child outlives the answer: the config's own processes included.
      if (child.pid !== undefined) killGroup(child.pid, "SIGKILL");
      child.stopReading();
      resolve(result);
    };
    const timer = setTimeout(
      () =>
        finish({
          ok: false,
          message: `Cannot load config ${name}: it did not finish loading within ${options.timeoutMs / 1000} s, so it was stopped (a top-level await that never settles, or an endless loop?)\nhint: run it with \`bun ${basename(path)}\` to see where it hangs; CPILOT_CONFIG_LOAD_TIMEOUT_MS changes the limit`,
        }),
      options.timeoutMs,
    );
    const onAbort = (): void =>
      finish({
        ok: false,
        message: `Cannot load config ${name}: interrupted (Ctrl-C or SIGTERM) before it finished loading\nhint: nothing was done`,
      });
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
    child.exited.then(async (end) => {
      await Promise.race([child.outputClosed, new Promise((r) => setTimeout(r, 200))]);
      const how =
        end.error !== null
          ? `could not start (${end.error.message})`
          : end.signal !== null
            ? `was killed by ${end.signal}`
            : `exited with code ${end.code}`;
      finish({
        ok: false,
        message: `Cannot load config ${name}: the process loading it ${how} before the config finished loading (does the config call process.exit(), kill its process, or await a promise that never settles?)`,
      });
    });
  });
}

/**
 * The child's side: load the config, then say so (a config that throws or does not
 * validate has finished loading too: the parent's own load reports why).
 */
export async function answerProbe(path: string | undefined): Promise<number> {
  const nonce = process.env[PROBE_ENV];
  delete process.env[PROBE_ENV];
  if (path === undefined || nonce === undefined) return 2;
  const { loadConfigFile } = await import("./load.ts");
  try {
    await loadConfigFile(path);
  } catch {
    // reported by the parent's own load
  }
  writeFd(1, `${nonce} loaded\n`);
  return 0;
}
