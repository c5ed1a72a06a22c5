/** Codex runs no hook it does not trust: after install, trust cpilot's, or print the one step left. */

import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { InactiveHooks, InstallRequest } from "../contract.ts";
import { type CodexHookState, codexHookState, trustCpilotHooks } from "./hook-trust.ts";
import { hooksTurnedOffIn } from "./hooks-feature.ts";
import { codexHome } from "./protocol.ts";

export async function trustAfterInstall(
  hooksPath: string,
  request: InstallRequest,
): Promise<string[]> {
  const trustProject = request.trustProject === true;
  const outcome = await trustCpilotHooks(request.root, hooksPath, request.env, trustProject);
  const lines: string[] = [];
  if (outcome.recorded.length > 0) {
    lines.push(
      `  Codex runs only hooks it trusts: recorded in ${outcome.configPath}, as its /hooks review does:`,
    );
    for (const line of outcome.recorded) lines.push(`    ${line}`);
  }
  const scope = request.scope === "user" ? " --user" : "";
  if (outcome.state.kind === "unknown")
    return [
      "  Codex runs only hooks it trusts, and it could not be asked here (is `codex` on PATH?); once it can, this records that trust:",
      `$ cpilot install codex${scope}`,
    ];
  const left = inactiveHooks(outcome.state, request.scope === "user");
  if (left !== null) lines.push(`  ${left.reason}; to fix it:`, `$ ${left.step}`);
  else if (outcome.state.kind === "listed" && outcome.recorded.length === 0)
    lines.push("  Codex trusts these hooks already");
  return lines;
}

/** null when it will (or cannot be asked). */
export function inactiveHooks(state: CodexHookState, user: boolean): InactiveHooks | null {
  const scope = user ? " --user" : "";
  if (state.kind === "unknown") return null;
  if (state.kind === "project-untrusted")
    return {
      reason:
        "Codex reads nothing from .codex/ in a project it does not trust (its first start here asks), so cpilot's hooks do not run",
      step: "cpilot install codex --trust-project",
    };
  if (state.ours.length === 0)
    return {
      reason: "Codex does not list cpilot's hooks for this project",
      step: `cpilot install codex${scope}`,
    };
  const pending = state.pending;
  if (pending.length === 0) return null;
  const off = pending.filter((h) => !h.enabled);
  if (off.length > 0)
    return {
      reason: `cpilot's ${off.map((h) => h.eventName).join(", ")} hook is turned off in Codex (hooks.state."${off[0]?.key}".enabled = false)`,
      step: "codex   # then /hooks, and turn cpilot's hooks on",
    };
  const changed = pending.some((h) => h.trustStatus === "modified");
  return {
    reason: `Codex does not trust cpilot's ${pending.map((h) => h.eventName).join(", ")} hook${pending.length === 1 ? "" : "s"}${changed ? " (changed since trusted)" : ""} and skips ${pending.length === 1 ? "it" : "them"}`,
    step: `cpilot install codex${scope}`,
    bypassArg: "--dangerously-bypass-hook-trust",
  };
}

export async function codexInactive(
  root: string,
  hooksPath: string,
  env: NodeJS.ProcessEnv,
  user: boolean,
): Promise<InactiveHooks | null> {
  const userConfig = join(codexHome(homedir(), env), "config.toml");
  const off = hooksTurnedOffIn(root, dirname(userConfig));
  if (off !== null)
    return {
      reason: `Codex's hooks are turned off: hooks = false under [features] in ${off}`,
      // `codex features enable` writes the user's file, which the project's outranks
      step:
        off === userConfig
          ? "codex features enable hooks"
          : `$EDITOR ${off}   # hooks = true under [features]`,
    };
  return inactiveHooks(await codexHookState(root, hooksPath, env), user);
}
