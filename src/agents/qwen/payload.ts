import {
  objectResponse,
  parseToolHookPayload,
  type ToolHookPayload,
} from "../../hook/hook-json.ts";
import type { JsonObject } from "../../util/json-file.ts";

/**
 * What Qwen Code 0.24.4 writes on a hook's stdin (seen): Claude Code's fields
 * (`session_id, transcript_path, cwd, hook_event_name, tool_name, tool_input,
 * tool_use_id`) with Gemini CLI's `tool_response {llmContent, returnDisplay, error?}`.
 */
export type QwenHookInput = ToolHookPayload<JsonObject | undefined>;

export function parseQwenInput(text: string, fallbackCwd: string) {
  return parseToolHookPayload(text, fallbackCwd, objectResponse);
}
