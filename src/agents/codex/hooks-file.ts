import type { ResolvedConfig } from "../../config/resolve.ts";
import { failClosedCommand } from "../../hook/fail-closed-command.ts";
import type { GroupedHooks } from "../kit/grouped-hooks.ts";
import { isCpilotHookCommand } from "../kit/hook-command.ts";
import { CODEX_PATCH_TOOL, CODEX_SHELL_TOOL } from "./patch.ts";

/** Seconds Codex gives each cpilot hook: past the longest blocking callback, at least 600. */
export function codexHookTimeoutSeconds(config: ResolvedConfig | null): number {
  let longest = 0;
  for (const cb of config?.callbacks ?? [])
    if (cb.blocking) longest = Math.max(longest, cb.timeoutMs);
  return Math.max(600, Math.ceil(longest / 1000) + 60);
}

/**
 * cpilot's entries for `.codex/hooks.json` (Claude Code's schema, timeout in seconds): the
 * gate and the callbacks on apply_patch, and the gate on the shell tool, whose heredoc
 * patches Codex applies itself; after the shell tool, what its command changed (found by
 * comparing the project's files with the turn's start, UserPromptSubmit); the callbacks table
 * and the results that waited at SessionStart and UserPromptSubmit; and the stop gate.
 */
export function codexHooks(command: string, timeout: number): GroupedHooks {
  const on = (matcher: string, run: string) => ({
    matcher,
    hooks: [{ type: "command", command: run, timeout }],
  });
  // the gate fails closed: Codex lets a tool run when its hook fails, and refuses on exit 2
  const gate = failClosedCommand(command);
  return {
    // the callbacks table, and again after a compaction or a clear
    SessionStart: [{ hooks: [{ type: "command", command, timeout: 60 }] }],
    // each prompt starts the agent's turn: the project's files are recorded then
    UserPromptSubmit: [{ hooks: [{ type: "command", command, timeout: 60 }] }],
    PreToolUse: [on(CODEX_PATCH_TOOL, gate), on(CODEX_SHELL_TOOL, gate)],
    PostToolUse: [on(CODEX_PATCH_TOOL, command), on(CODEX_SHELL_TOOL, command)],
    // the stop gate: held while a check it was told about still fails; a subagent's too
    Stop: [{ hooks: [{ type: "command", command, timeout }] }],
    SubagentStop: [{ hooks: [{ type: "command", command, timeout }] }],
  };
}

export const isCodexCpilotCommand = (cmd: unknown): boolean => isCpilotHookCommand(cmd, "codex");
