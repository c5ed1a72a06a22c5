import { readHookJson, toolHookFields } from "../kit/hook-json.ts";
import { isObject } from "../kit/json-file.ts";

/**
 * What Qwen Code 0.24.4 writes on a hook's stdin (seen): Claude Code's fields
 * (`session_id, transcript_path, cwd, hook_event_name, tool_name, tool_input,
 * tool_use_id`) with Gemini CLI's `tool_response {llmContent, returnDisplay, error?}`.
 */
export interface QwenHookInput {
  readonly event: string;
  readonly session: string;
  readonly cwd: string;
  readonly toolName: string;
  readonly toolInput: Record<string, unknown>;
  readonly toolResponse: Record<string, unknown> | undefined;
}

export type ParsedQwen = { ok: true; input: QwenHookInput } | { ok: false; error: string };

export function parseQwenInput(text: string, fallbackCwd: string): ParsedQwen {
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
