import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname } from "node:path";
import { AGENTS } from "../agents/all-agents.ts";
import { findConfig } from "../config/find.ts";
import { CpilotError } from "../util/errors.ts";
import { checkAgent } from "./agents.ts";
import { checkCallback } from "./callback-command.ts";
import type { AgentCheck, CallbackCheck, DoctorReport } from "./types.ts";

export async function diagnose(
  cwd: string,
  options: { config?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<DoctorReport> {
  const env = options.env ?? process.env;
  const home = env.HOME || homedir();
  const configPath = options.config ?? findConfig(cwd);
  const root = configPath === null ? cwd : dirname(configPath);
  let configError: string | null =
    configPath === null
      ? "no callbacks.config.ts (or .js/.json/.yaml) here or above: `cpilot init` writes one"
      : null;
  let callbacks: CallbackCheck[] = [];
  let kept: true | string | null = null;
  if (configPath !== null) {
    try {
      const { readConfigValue } = await import("../config/load.ts");
      const { loadCommandConfig } = await import("../config/supervised-load.ts");
      const config = await loadCommandConfig(configPath, root);
      callbacks = config.callbacks.map((cb) => checkCallback(cb, env));
      if (!/\.(?:json|ya?ml)$/.test(configPath)) {
        const { whyNotKept } = await import("../config/value-cache.ts");
        kept =
          whyNotKept(configPath, readFileSync(configPath), await readConfigValue(configPath)) ??
          true;
      }
    } catch (err) {
      configError =
        err instanceof CpilotError
          ? `${err.message}${err.hint ? `\nhint: ${err.hint}` : ""}`
          : String(err);
    }
  }
  const agents = (await Promise.all(AGENTS.map((a) => checkAgent(a, root, home, env)))).filter(
    (a): a is AgentCheck => a !== null,
  );
  const problems =
    (configError === null ? 0 : 1) +
    agents.filter((a) => a.problem !== null).length +
    agents.reduce((n, a) => n + a.addOns.filter((x) => x.problem !== null).length, 0) +
    callbacks.filter((c) => c.status === "missing").length;
  return {
    root,
    config: { path: configPath, ok: configError === null, error: configError, kept },
    agents,
    callbacks,
    problems,
  };
}
