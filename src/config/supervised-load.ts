import { readFileSync, statSync } from "node:fs";
import { basename, resolve } from "node:path";
import { bun } from "../platform/bun.ts";
import { sha1Hex } from "../platform/digest.ts";
import { processStop } from "../platform/process-stop.ts";
import { CpilotError } from "../util/errors.ts";
import { findConfig } from "./find.ts";
import { loadConfigFile, loadProjectConfig } from "./load.ts";
import { probeTimeoutMs, proveConfigLoads } from "./load-probe.ts";
import type { ResolvedConfig } from "./resolve.ts";
import { configRunsCode } from "./value-cache.ts";

export const COMMAND_LOAD_TIMEOUT_MS = 30_000;

/**
 * The project's config for a command run by a person: one that hangs, loops or exits ends the
 * command with a clear error within the deadline, and Ctrl-C ends it meanwhile.
 */
export async function loadProjectConfigSupervised(
  cwd: string,
  explicit: string | undefined,
  signal: AbortSignal = processStop,
): Promise<ResolvedConfig> {
  const path = explicit === undefined ? findConfig(cwd) : resolve(cwd, explicit);
  if (path === null || !statSync(path, { throwIfNoEntry: false })?.isFile()) {
    return loadProjectConfig(cwd, explicit);
  }
  return loadCommandConfig(path, cwd, signal);
}

/** As {@link loadProjectConfigSupervised}, for a config at a known path. */
export function loadCommandConfig(
  path: string,
  cwd: string,
  signal: AbortSignal = processStop,
): Promise<ResolvedConfig> {
  return loadConfigSupervised(path, {
    cwd,
    signal,
    timeoutMs: probeTimeoutMs(process.env, COMMAND_LOAD_TIMEOUT_MS),
    defaultSignals: true,
  });
}

export class ConfigDidNotLoad extends CpilotError {}

/**
 * Load the config here only once it has shown it loads in a supervised child. While it loads
 * here, process.exit() fails the load, and with `defaultSignals` Ctrl-C still ends the
 * process (no JavaScript handler runs while the config's code holds the thread).
 */
export async function loadConfigSupervised(
  path: string,
  options: { timeoutMs: number; cwd: string; signal?: AbortSignal; defaultSignals?: boolean },
): Promise<ResolvedConfig> {
  if (!configRunsCode(path)) return loadConfigFile(path);
  const load = () => withExitRefused(basename(path), () => loadConfigFile(path));
  const here = () => (options.defaultSignals ? withDefaultSignals(load) : load());
  // This process imported this very source before: its module is kept, no code runs again.
  const version = sourceVersion(path);
  if (version !== null && proven.has(version)) return loadConfigFile(path);
  // Only under Bun can cpilot start itself again; elsewhere the config loads here, no deadline.
  if (!bun) return here();
  const probe = await proveConfigLoads(path, options);
  if (!probe.ok) {
    const [message, ...rest] = probe.message.split("\nhint: ");
    throw new ConfigDidNotLoad(message ?? probe.message, {
      hint:
        rest.join("\n") || "the config must finish loading on its own; run it with `bun` to see",
      exitCode: options.signal?.aborted ? 130 : 2,
    });
  }
  const config = await here();
  if (version !== null) proven.add(version);
  return config;
}

const proven = new Set<string>();

function sourceVersion(path: string): string | null {
  try {
    return `${path}\0${sha1Hex(readFileSync(path))}`;
  } catch {
    return null;
  }
}

const STOP_SIGNALS = ["SIGINT", "SIGTERM"] as const;

async function withDefaultSignals<T>(work: () => Promise<T>): Promise<T> {
  const saved = STOP_SIGNALS.map((s) => [s, process.listeners(s)] as const);
  for (const s of STOP_SIGNALS) process.removeAllListeners(s);
  try {
    return await work();
  } finally {
    for (const [s, listeners] of saved) for (const l of listeners) process.on(s, l);
  }
}

async function withExitRefused<T>(name: string, work: () => Promise<T>): Promise<T> {
  const exit = process.exit;
  process.exit = ((code?: number) => {
    // A second Ctrl-C exits on purpose, whatever is loading.
    if (processStop.aborted) return exit(code);
    throw new CpilotError(
      `Cannot load config "${name}": it called process.exit(${code ?? ""}) while loading`,
      { hint: "a config exports its settings; it must not end the process that loads it" },
    );
  }) as typeof process.exit;
  try {
    return await work();
  } finally {
    process.exit = exit;
  }
}
