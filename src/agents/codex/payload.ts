import { readHookJson, toolHookFields } from "../kit/hook-json.ts";

/**
 * What Codex CLI writes on a hook's stdin (Claude Code's schema): `session_id, cwd,
 * hook_event_name, tool_name, tool_input, tool_use_id`, PostToolUse adds `tool_response`.
 */
export interface CodexHookInput {
  readonly event: string;
  readonly session: string;
  readonly cwd: string;
  readonly toolName: string;
  readonly toolInput: Record<string, unknown>;
  readonly toolResponse: unknown;
}

export function parseCodexInput(
  text: string,
  fallbackCwd: string,
): { ok: true; input: CodexHookInput } | { ok: false; error: string } {
  const read = readHookJson(text);
  if (!read.ok) return read;
  const { raw, event } = read;
  return {
    ok: true,
    input: {
      event,
      ...toolHookFields(raw, fallbackCwd),
      toolResponse: raw.tool_response,
    },
  };
}
