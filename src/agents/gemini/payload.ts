import {
  objectResponse,
  parseToolHookPayload,
  type ToolHookPayload,
} from "../../hook/hook-input.ts";
import type { JsonObject } from "../../util/json-file.ts";

/**
 * What Gemini CLI writes on a hook's stdin: `session_id, transcript_path, cwd,
 * hook_event_name, timestamp, tool_name, tool_input`, and for AfterTool `tool_response
 * {llmContent, returnDisplay, error?}`.
 */
export type GeminiHookInput = ToolHookPayload<JsonObject | undefined>;

/** Parse the stdin of a Gemini CLI hook; `fallbackCwd` when the payload has no cwd. */
export function parseGeminiInput(text: string, fallbackCwd: string) {
  return parseToolHookPayload(text, fallbackCwd, objectResponse);
}
