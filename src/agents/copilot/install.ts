import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { ResolvedConfig } from "../../config/resolve.ts";
import { readJsonObject, writeJsonObject } from "../../util/json-file.ts";
import type { AgentInstaller } from "../kit/agent-installer.ts";
import { agentHookCommand, hookPlace, isCpilotHookCommand } from "../kit/hook-command.ts";
import { copilotProtocol } from "./protocol.ts";

/** Copilot CLI reads every `.github/hooks/*.json` of the repository. */
export function copilotHooksPath(root: string): string {
  return join(root, ".github", "hooks", "cpilot.json");
}

/** Copilot's default is 30 s: past the longest blocking callback. */
export function copilotHookTimeoutSeconds(config: ResolvedConfig | null): number {
  let longest = 0;
  for (const cb of config?.callbacks ?? [])
    if (cb.blocking) longest = Math.max(longest, cb.timeoutMs);
  return Math.max(600, Math.ceil(longest / 1000) + 60);
}

export function copilotHooksFile(command: string, timeout: number): Record<string, unknown> {
  const entry = (timeoutSec: number) => [
    { type: "command", bash: command, powershell: command, timeoutSec },
  ];
  return {
    version: 1,
    hooks: {
      sessionStart: entry(30),
      userPromptSubmitted: entry(30),
      preToolUse: entry(timeout),
      postToolUse: entry(timeout),
      // the stop gate: held while a check it was told about still fails; a subagent's too
      agentStop: entry(timeout),
      subagentStop: entry(timeout),
    },
  };
}

export const isCopilotCpilotCommand = (cmd: unknown): boolean =>
  isCpilotHookCommand(cmd, "copilot");

/** A file there that is not cpilot's is left alone. */
export const copilotInstaller: AgentInstaller = (action, ctx) => {
  const path = copilotHooksPath(ctx.root);
  const before = existsSync(path) ? readJsonObject(path) : null;
  const ours = before === null || JSON.stringify(before).includes(" hook copilot");
  if (action === "uninstall") {
    if (before === null || !ours)
      return { path, changed: false, lines: ["no cpilot hooks: nothing changed"] };
    rmSync(path);
    return { path, changed: true, lines: ["removed cpilot's hook file"] };
  }
  const command = agentHookCommand(
    "copilot",
    copilotProtocol,
    hookPlace({ scope: "project", root: ctx.root }),
  );
  const timeout = copilotHookTimeoutSeconds(ctx.config);
  const after = copilotHooksFile(command, timeout);
  if (JSON.stringify(before) === JSON.stringify(after))
    return { path, changed: false, lines: ["hooks already there: nothing changed"] };
  writeJsonObject(path, after);
  return {
    path,
    changed: true,
    lines: [
      "added hooks for sessionStart, userPromptSubmitted (callbacks table, waiting results, the turn's start), preToolUse, postToolUse (create, edit, bash), agentStop and subagentStop (the stop gate)",
      `  command: ${command} (timeout ${timeout} s)`,
    ],
  };
};
