import {
  objectResponse,
  parseToolHookPayload,
  readHookJson,
  str,
  type ToolHookPayload,
} from "../../hook/hook-input.ts";
import type { JsonObject } from "../../util/json-file.ts";

/**
 * Qwen Code 0.24.4 (seen): Claude Code's fields with Gemini CLI's `tool_response`, and
 * `prompt_id`, the person's prompt (UserPromptSubmit fires again after each tool round with it).
 */
export type QwenHookInput = ToolHookPayload<JsonObject | undefined> & {
  readonly promptId: string | undefined;
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
