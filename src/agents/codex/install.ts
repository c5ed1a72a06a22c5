import { join } from "node:path";
import { FAILS_CLOSED } from "../../hook/fail-closed-command.ts";
import { type AgentInstaller, installGroupedHooks } from "../kit/agent-installer.ts";
import { agentHookCommand, hookPlace } from "../kit/hook-command.ts";
import { codexHooks, codexHookTimeoutSeconds, isCodexCpilotCommand } from "./hooks-file.ts";
import { codexHome, codexProtocol } from "./protocol.ts";

/** `$CODEX_HOME/hooks.json` for --user. */
export function codexHooksPath(
  scope: "project" | "user",
  root: string,
  home: string,
  env = process.env,
): string {
  if (scope === "user") return join(codexHome(home, env), "hooks.json");
  return join(root, ".codex", "hooks.json");
}

export const codexInstaller: AgentInstaller = (action, ctx) => {
  const path = codexHooksPath(ctx.scope, ctx.root, ctx.home);
  const command = agentHookCommand("codex", codexProtocol, hookPlace(ctx));
  const timeout = codexHookTimeoutSeconds(ctx.config);
  return installGroupedHooks(
    path,
    action,
    codexHooks(command, timeout),
    isCodexCpilotCommand,
    [
      "added hooks for SessionStart (the callbacks table, again after a compaction), UserPromptSubmit (the turn's start), PreToolUse (apply_patch, Bash), PostToolUse (apply_patch, Bash), Stop and SubagentStop (the stop gate)",
      `  command: ${command} (timeout ${timeout} s)`,
      FAILS_CLOSED,
    ],
    ctx.scope === "project",
  );
};
