import { spawn } from "node:child_process";
import { openSync } from "node:fs";
import type { ResolvedConfig } from "../config/resolve.ts";
import { selfArgv } from "../platform/self-command.ts";
import { claimOnce } from "./session-state.ts";

export const BASE_CHECK_ENV = "CPILOT_BASE_CHECK";

const BASE_CHECK_TIMEOUT_S = 600;

/**
 * At a session's start, check the project in the background, so the first edit has a record
 * of the content before it. Once per session, detached, lowest priority, no overlap lock (an
 * agent's run never waits for it); no fixers, so nothing is rewritten behind the agent.
 */
export function startBaseCheck(config: ResolvedConfig, session: string): void {
  try {
    if (process.env[BASE_CHECK_ENV] === "0") return;
    if (!claimOnce(config.root, session, "base-check")) return;
    const skip = config.callbacks
      .filter((c) => c.fixes || !c.blocking || typeof c.run === "function" || c.cache === false)
      .flatMap((c) => ["--skip", c.name]);
    if (skip.length / 2 === config.callbacks.length) return;
    const self = selfArgv();
    const argv = [
      "-n",
      "19",
      "timeout",
      "-k",
      "5",
      String(BASE_CHECK_TIMEOUT_S),
      ...self,
      "check",
      "--all",
      "--json",
      ...(config.path === "" ? [] : ["--config", config.path]),
      ...skip,
    ];
    const devNull = openSync("/dev/null", "r+");
    const child = spawn("nice", argv, {
      cwd: config.root,
      detached: true,
      stdio: [devNull, devNull, devNull],
      env: { ...process.env, [BASE_CHECK_ENV]: "1", CI: "" },
    });
    child.on("error", () => {});
    child.unref();
  } catch {
    // A convenience: without it, the first edit's diagnostics may be "cannot tell".
  }
}
