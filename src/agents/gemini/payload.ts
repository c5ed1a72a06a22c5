import {
  objectResponse,
  parseToolHookPayload,
  type ToolHookPayload,
} from "../../hook/hook-input.ts";
import type { JsonObject } from "../../util/json-file.ts";

/** AfterTool adds `tool_response {llmContent, returnDisplay, error?}`. */
export type GeminiHookInput = ToolHookPayload<JsonObject | undefined>;

/** `fallbackCwd` when the payload has no cwd. */
export function parseGeminiInput(text: string, fallbackCwd: string) {
  return parseToolHookPayload(text, fallbackCwd, objectResponse);
}
