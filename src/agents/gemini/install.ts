import { join } from "node:path";
import { type AgentInstaller, installGroupedHooks } from "../kit/agent-installer.ts";
import { agentHookCommand, hookPlace } from "../kit/hook-command.ts";
import { geminiProtocol } from "./protocol.ts";
import { geminiHooks, geminiHookTimeoutMs, isGeminiCpilotCommand } from "./settings.ts";

/** `~/.gemini/settings.json` for --user. */
export function geminiSettingsPath(scope: "project" | "user", root: string, home: string): string {
  return join(scope === "user" ? home : root, ".gemini", "settings.json");
}

export const geminiInstaller: AgentInstaller = (action, ctx) => {
  const path = geminiSettingsPath(ctx.scope, ctx.root, ctx.home);
  const command = agentHookCommand("gemini", geminiProtocol, hookPlace(ctx));
  const timeout = geminiHookTimeoutMs(ctx.config);
  return installGroupedHooks(
    path,
    action,
    geminiHooks(command, timeout),
    isGeminiCpilotCommand,
    [
      "added hooks for BeforeAgent (callbacks table, waiting results), BeforeTool (write_file|replace), AfterTool (write_file|replace|run_shell_command), AfterAgent (the stop gate)",
      `  command: ${command} (timeout ${timeout} ms)`,
    ],
    ctx.scope === "project",
  );
};
