import { parseToolHookPayload, type ToolHookPayload } from "../../hook/hook-input.ts";

/**
 * What Codex CLI writes on a hook's stdin (Claude Code's schema): `session_id, cwd,
 * hook_event_name, tool_name, tool_input, tool_use_id`, PostToolUse adds `tool_response`.
 */
export type CodexHookInput = ToolHookPayload<unknown>;

export function parseCodexInput(text: string, fallbackCwd: string) {
  return parseToolHookPayload(text, fallbackCwd, (value) => value);
}
