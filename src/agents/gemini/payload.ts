import { readHookJson, toolHookFields } from "../kit/hook-json.ts";
import { isObject } from "../kit/json-file.ts";

/**
 * What Gemini CLI writes on a hook's stdin: `session_id, transcript_path, cwd,
 * hook_event_name, timestamp, tool_name, tool_input`, and for AfterTool `tool_response
 * {llmContent, returnDisplay, error?}`.
 */
export interface GeminiHookInput {
  readonly event: string;
  readonly session: string;
  readonly cwd: string;
  readonly toolName: string;
  readonly toolInput: Record<string, unknown>;
  readonly toolResponse: Record<string, unknown> | undefined;
}

export type ParsedGemini = { ok: true; input: GeminiHookInput } | { ok: false; error: string };

/** Parse the stdin of a Gemini CLI hook; `fallbackCwd` when the payload has no cwd. */
export function parseGeminiInput(text: string, fallbackCwd: string): ParsedGemini {
  const read = readHookJson(text);
  if (!read.ok) return read;
  const { raw, event } = read;
  return {
    ok: true,
    input: {
      event,
      ...toolHookFields(raw, fallbackCwd),
      toolResponse: isObject(raw.tool_response) ? raw.tool_response : undefined,
    },
  };
}
