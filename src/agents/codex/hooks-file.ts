import type { ResolvedConfig } from "../../config/resolve.ts";
import { failClosedCommand } from "../../hook/fail-closed-command.ts";
import type { GroupedHooks } from "../kit/grouped-hooks.ts";
import { isCpilotHookCommand } from "../kit/hook-command.ts";
import { CODEX_PATCH_TOOL, CODEX_SHELL_TOOL } from "./patch.ts";

/** Past the longest blocking callback, at least 600. */
export function codexHookTimeoutSeconds(config: ResolvedConfig | null): number {
  let longest = 0;
  for (const cb of config?.callbacks ?? [])
    if (cb.blocking) longest = Math.max(longest, cb.timeoutMs);
  return Math.max(600, Math.ceil(longest / 1000) + 60);
}

/**
 * Claude Code's schema, timeouts in seconds. The gate also covers the shell tool, whose
 * heredoc patches Codex applies itself; what a shell command changed is found by comparing
 * with the turn's start (UserPromptSubmit).
 */
export function codexHooks(command: string, timeout: number): GroupedHooks {
  const on = (matcher: string, run: string) => ({
    matcher,
    hooks: [{ type: "command", command: run, timeout }],
  });
  // Codex lets a tool run when its hook fails, and refuses on exit 2: the gate fails closed.
  const gate = failClosedCommand(command);
  return {
    // the callbacks table, and again after a compaction or a clear
    SessionStart: [{ hooks: [{ type: "command", command, timeout: 60 }] }],
    // each prompt starts the agent's turn: the project's files are recorded then
    UserPromptSubmit: [{ hooks: [{ type: "command", command, timeout: 60 }] }],
    PreToolUse: [on(CODEX_PATCH_TOOL, gate), on(CODEX_SHELL_TOOL, gate)],
    PostToolUse: [on(CODEX_PATCH_TOOL, command), on(CODEX_SHELL_TOOL, command)],
    Stop: [{ hooks: [{ type: "command", command, timeout }] }],
    SubagentStop: [{ hooks: [{ type: "command", command, timeout }] }],
  };
}

export const isCodexCpilotCommand = (cmd: unknown): boolean => isCpilotHookCommand(cmd, "codex");
