import { join } from "node:path";
import type { ResolvedConfig } from "../../config/resolve.ts";
import { FAILS_CLOSED, failClosedCommand } from "../../hook/fail-closed-command.ts";
import { type AgentInstaller, installGroupedHooks } from "../kit/agent-installer.ts";
import type { GroupedHooks } from "../kit/grouped-hooks.ts";
import { agentHookCommand, hookPlace, isCpilotHookCommand } from "../kit/hook-command.ts";
import { qwenProtocol } from "./protocol.ts";
import { QWEN_EDIT_MATCHER, QWEN_SHELL_TOOL } from "./tools.ts";

/** `~/.qwen/settings.json` for --user. */
export function qwenSettingsPath(scope: "project" | "user", root: string, home: string): string {
  return join(scope === "user" ? home : root, ".qwen", "settings.json");
}

/** Qwen's default is 60; at most 999, since Qwen reads 1000 or more as the old milliseconds. */
export function qwenHookTimeoutSeconds(config: ResolvedConfig | null): number {
  let longest = 0;
  for (const cb of config?.callbacks ?? [])
    if (cb.blocking) longest = Math.max(longest, cb.timeoutMs);
  return Math.min(999, Math.max(600, Math.ceil(longest / 1000) + 60));
}

export function qwenHooks(command: string, timeout: number): GroupedHooks {
  const hook = (t: number, run = command) => [{ type: "command", command: run, timeout: t }];
  return {
    SessionStart: [{ hooks: hook(60) }],
    UserPromptSubmit: [{ hooks: hook(60) }],
    // the gate fails closed: Qwen lets a tool run when its hook fails, and refuses on exit 2
    PreToolUse: [{ matcher: QWEN_EDIT_MATCHER, hooks: hook(timeout, failClosedCommand(command)) }],
    // after the shell tool too: what a command changed is checked like an edit
    PostToolUse: [{ matcher: `${QWEN_EDIT_MATCHER}|${QWEN_SHELL_TOOL}`, hooks: hook(timeout) }],
    Stop: [{ hooks: hook(timeout) }],
    SubagentStop: [{ hooks: hook(timeout) }],
  };
}

export const isQwenCpilotCommand = (cmd: unknown): boolean => isCpilotHookCommand(cmd, "qwen");

export const qwenInstaller: AgentInstaller = (action, ctx) => {
  const path = qwenSettingsPath(ctx.scope, ctx.root, ctx.home);
  const command = agentHookCommand("qwen", qwenProtocol, hookPlace(ctx));
  const timeout = qwenHookTimeoutSeconds(ctx.config);
  return installGroupedHooks(
    path,
    action,
    qwenHooks(command, timeout),
    isQwenCpilotCommand,
    [
      "added hooks for SessionStart, UserPromptSubmit (callbacks table, waiting results), PreToolUse (write_file|edit), PostToolUse (write_file|edit|run_shell_command), Stop and SubagentStop (the stop gate)",
      `  command: ${command} (timeout ${timeout} s)`,
      FAILS_CLOSED,
    ],
    ctx.scope === "project",
  );
};
