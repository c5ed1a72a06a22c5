/**
 * How a real-CLI e2e test starts one pinned agent CLI offline against a fake model: its
 * temp home, its environment, its command line. Each agent's _<agent>-cli.ts keeps only
 * what is its own (binary, arguments, config variables).
 */
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathWithCpilot, runtimeEnv } from "../helpers/binary.ts";
import { type CliRun, runCli } from "./run-cli.ts";

export interface LaunchOptions {
  readonly cwd: string;
  readonly prompt: string;
  readonly home: string;
  readonly apiUrl: string;
  /** Start it through this, e.g. `[cpilot, "run", "--"]`. */
  readonly via?: string[];
  readonly timeoutMs?: number;
  /** Variables over the launcher's own (a PATH without cpilot). */
  readonly env?: Record<string, string>;
}

export interface AgentLauncher {
  /** The agent's name for `cpilot install <agent>`. */
  readonly agent: string;
  /** A fresh temp home for one session (the fake's URL, for agents that keep it in a config file). */
  home(apiUrl: string): string;
  /** The environment the CLI, and cpilot's hooks beside it, run with. */
  env(home: string, apiUrl: string): Record<string, string>;
  run(options: LaunchOptions): Promise<CliRun>;
}

/** A pinned CLI in node_modules/.bin. */
export const nodeBin = (name: string): string =>
  join(import.meta.dir, "..", "..", "node_modules", ".bin", name);

/** A fresh empty temp folder for the agent's HOME. */
export function tempHome(agent: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `cpilot-${agent}-home-`)));
}

/**
 * The environment every CLI runs with around its own variables: cpilot on PATH (the shared
 * hook config names `cpilot`, as for a teammate), the temp HOME, and the fake as HTTP(S)
 * proxy, so a request for any other host reaches the fake as an escape.
 */
export function offlineEnv(
  home: string,
  apiUrl: string,
  own: Record<string, string>,
): Record<string, string> {
  return {
    PATH: pathWithCpilot(process.env.PATH ?? "/usr/bin:/bin"),
    HOME: home,
    ...own,
    HTTPS_PROXY: apiUrl,
    HTTP_PROXY: apiUrl,
    NO_PROXY: "127.0.0.1,localhost",
    ...runtimeEnv(),
  };
}

/** A launcher that runs `bin ...args(prompt)` in the cwd, in a network namespace that reaches only the fake. */
export function cliLauncher(spec: {
  agent: string;
  bin: string;
  args: (prompt: string) => string[];
  env: (home: string, apiUrl: string) => Record<string, string>;
  home?: (apiUrl: string) => string;
}): AgentLauncher {
  return {
    agent: spec.agent,
    home: spec.home ?? (() => tempHome(spec.agent)),
    env: spec.env,
    run: (options) =>
      runCli([...(options.via ?? []), spec.bin, ...spec.args(options.prompt)], {
        cwd: options.cwd,
        offlineTo: options.apiUrl,
        env: { ...spec.env(options.home, options.apiUrl), ...options.env },
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
      }),
  };
}
