import {
  objectResponse,
  parseToolHookPayload,
  readHookJson,
  str,
  type ToolHookPayload,
} from "../../hook/hook-input.ts";
import type { JsonObject } from "../../util/json-file.ts";

/**
 * What Qwen Code 0.24.4 writes on a hook's stdin (seen): Claude Code's fields
 * (`session_id, transcript_path, cwd, hook_event_name, tool_name, tool_input,
 * tool_use_id`) with Gemini CLI's `tool_response {llmContent, returnDisplay, error?}`, and
 * `prompt_id`: the person's prompt the call belongs to (UserPromptSubmit fires again after
 * each tool round with the same one).
 */
export type QwenHookInput = ToolHookPayload<JsonObject | undefined> & {
  readonly promptId: string | undefined;
  /** Set when the event fires inside a subagent, and on its SubagentStop. */
  readonly agentId: string | undefined;
};

export function parseQwenInput(
  text: string,
  fallbackCwd: string,
): { ok: true; input: QwenHookInput } | { ok: false; error: string } {
  const parsed = parseToolHookPayload(text, fallbackCwd, objectResponse);
  if (!parsed.ok) return parsed;
  const read = readHookJson(text);
  const promptId = read.ok ? str(read.raw.prompt_id) || undefined : undefined;
  const agentId = read.ok ? str(read.raw.agent_id) || undefined : undefined;
  return { ok: true, input: { ...parsed.input, promptId, agentId } };
}
