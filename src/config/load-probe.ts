// A config whose loading runs the user's code is first loaded in a child process (this same
// cpilot, `cpilot _load-config PATH`) that can be stopped: a config that loops, awaits for
// ever, calls process.exit() or kills its process is found there, within a deadline and
// answering signals, before a long-lived or interactive process (`cpilot mcp`, `cpilot
// check`) imports it on its own thread, where nothing could stop it.

import { basename } from "node:path";
import { writeFd } from "../platform/stdio.ts";
import { superviseSelf, takeNonce } from "../platform/supervised-child.ts";

/** The hidden command of the child: `cpilot _load-config PATH` (main.ts). */
export const PROBE_COMMAND = "_load-config";
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
  const name = JSON.stringify(basename(path));
  return superviseSelf<ProbeResult>({
    args: [PROBE_COMMAND, path],
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdin: "",
    nonceEnv: PROBE_ENV,
    deadline: {
      ms: options.timeoutMs,
      result: () => ({
        ok: false,
        message: `Cannot load config ${name}: it did not finish loading within ${options.timeoutMs / 1000} s, so it was stopped (a top-level await that never settles, or an endless loop?)\nhint: run it with \`bun ${basename(path)}\` to see where it hangs; CPILOT_CONFIG_LOAD_TIMEOUT_MS changes the limit`,
      }),
    },
    onReport: (payload, child) => {
      if (payload === "loaded") child.finish({ ok: true });
    },
    onExit: (how, child) =>
      child.finish({
        ok: false,
        message: `Cannot load config ${name}: the process loading it ${how} before the config finished loading (does the config call process.exit(), kill its process, or await a promise that never settles?)`,
      }),
    ...(options.signal && {
      stop: {
        signal: options.signal,
        onStop: (child) =>
          child.finish({
            ok: false,
            message: `Cannot load config ${name}: interrupted (Ctrl-C or SIGTERM) before it finished loading\nhint: nothing was done`,
          }),
      },
    }),
  });
}

/**
 * The child's side: load the config, then say so (a config that throws or does not
 * validate has finished loading too: the parent's own load reports why).
 */
export async function answerProbe(path: string | undefined): Promise<number> {
  const nonce = takeNonce(PROBE_ENV);
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
