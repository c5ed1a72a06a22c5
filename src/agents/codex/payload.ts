import {
  parseToolHookPayload,
  readHookJson,
  str,
  type ToolHookPayload,
} from "../../hook/hook-input.ts";

/**
 * What Codex CLI writes on a hook's stdin (Claude Code's schema): `session_id, cwd,
 * hook_event_name, tool_name, tool_input, tool_use_id`, PostToolUse adds `tool_response`,
 * SessionStart `source` (startup, resume, clear or compact), SubagentStop `agent_id`.
 */
export type CodexHookInput = ToolHookPayload<unknown> & {
  readonly source: string | undefined;
  /** SubagentStop: the subagent's id. */
  readonly agentId: string | undefined;
};

export function parseCodexInput(
  text: string,
  fallbackCwd: string,
): { ok: true; input: CodexHookInput } | { ok: false; error: string } {
  const parsed = parseToolHookPayload(text, fallbackCwd, (value) => value);
  if (!parsed.ok) return parsed;
  const read = readHookJson(text);
  const source = read.ok ? str(read.raw.source) : undefined;
  const agentId = read.ok ? str(read.raw.agent_id) || undefined : undefined;
  return { ok: true, input: { ...parsed.input, source, agentId } };
}
