import { readHookJson, str } from "../../hook/hook-input.ts";
import { isObject } from "../../util/json-file.ts";

/**
 * Every event: `hook_event_name, conversation_id, generation_id, workspace_roots`.
 * preToolUse/postToolUse: `tool_name, tool_input` (+ `tool_output`); afterFileEdit:
 * `file_path, edits`.
 */
export interface CursorHookInput {
  readonly event: string;
  /** `conversation_id`: one agent chat. */
  readonly session: string;
  /** The first workspace root, else `cwd`, else the fallback. */
  readonly cwd: string;
  readonly toolName: string;
  readonly toolInput: Record<string, unknown>;
  readonly filePath: string | undefined;
}

export function parseCursorInput(
  text: string,
  fallbackCwd: string,
): { ok: true; input: CursorHookInput } | { ok: false; error: string } {
  const read = readHookJson(text);
  if (!read.ok) return read;
  const { raw, event } = read;
  const roots = Array.isArray(raw.workspace_roots) ? raw.workspace_roots : [];
  const root = roots.find((r): r is string => typeof r === "string" && r !== "");
  return {
    ok: true,
    input: {
      event,
      session: str(raw.conversation_id) || str(raw.session_id) || "unknown-session",
      cwd: root || str(raw.cwd) || fallbackCwd,
      toolName: str(raw.tool_name) ?? "",
      toolInput: isObject(raw.tool_input) ? raw.tool_input : {},
      filePath: str(raw.file_path),
    },
  };
}
