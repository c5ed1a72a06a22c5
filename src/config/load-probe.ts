// A config whose loading runs the user's code is first loaded in a child process that can be
// stopped: one that loops, hangs or exits is found there, within a deadline, before a
// long-lived process imports it on its own thread, where nothing could stop it.

import { basename } from "node:path";
import { writeFd } from "../platform/stdio.ts";
import { superviseSelf, takeNonce } from "../platform/supervised-child.ts";

export const PROBE_COMMAND = "_load-config";
/** Its value is a nonce that marks the child's report among the config's prints. */
const PROBE_ENV = "CPILOT_CONFIG_PROBE";

export type ProbeResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

export function probeTimeoutMs(env: NodeJS.ProcessEnv, fallbackMs: number): number {
  const ms = Number(env.CPILOT_CONFIG_LOAD_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : fallbackMs;
}

/** Ok when the config at `path` finished loading in a supervised child within `timeoutMs` (valid or not), else why not. */
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

/** The child's side: a config that throws or does not validate has finished loading too. */
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
