import { isObject } from "../../util/json-file.ts";
import { readHookJson, str } from "../kit/hook-json.ts";

/**
 * The JSON Claude Code writes on a hook's stdin, checked by hand (no schema library on the
 * hot path). Unknown fields are ignored; a missing required field is an error, never a crash.
 */

/** One tool call of a PostToolBatch. */
export interface ClaudeToolCall {
  readonly toolName: string;
  readonly toolInput: Record<string, unknown>;
  readonly toolUseId: string;
  /** An object in PostToolUse; the tool_result string in PostToolBatch (2.1.330). */
  readonly toolResponse: unknown;
}

export interface ClaudeHookInput {
  /** `hook_event_name`: PreToolUse, PostToolUse, PostToolBatch, Stop, SessionStart... */
  readonly event: string;
  readonly session: string;
  /** The project dir the agent runs in. */
  readonly cwd: string;
  readonly transcriptPath: string | undefined;
  readonly permissionMode: string | undefined;
  /** PreToolUse / PostToolUse: the one tool call. */
  readonly tool: ClaudeToolCall | undefined;
  /** PostToolBatch: every call of the batch. */
  readonly toolCalls: readonly ClaudeToolCall[];
  /** Stop: the agent's final message (2.1.x sends it; older versions: read the transcript). */
  readonly lastAssistantMessage: string | undefined;
  readonly stopHookActive: boolean;
  /** SessionStart: why the session (re)starts: startup, resume, clear or compact. */
  readonly source: string | undefined;
  /**
   * Cursor, which runs Claude Code's hooks too, sent this call (fields of its own payload):
   * its workspace roots (and the call's cwd); null for Claude Code's own calls.
   */
  readonly fromCursor: readonly string[] | null;
}

export type ParsedInput = { ok: true; input: ClaudeHookInput } | { ok: false; error: string };

type Obj = Record<string, unknown>;

/** Fields every Cursor hook payload carries and Claude Code's never does. */
const CURSOR_FIELDS = ["cursor_version", "conversation_id", "generation_id", "workspace_roots"];

const isObj = isObject as (v: unknown) => v is Obj;

function toolCall(raw: Obj, names: { input: string; response: string }): ClaudeToolCall | null {
  const toolName = str(raw.tool_name);
  const toolInput = raw[names.input];
  if (toolName === undefined || !isObj(toolInput)) return null;
  return {
    toolName,
    toolInput,
    toolUseId: str(raw.tool_use_id) ?? "",
    toolResponse: raw[names.response],
  };
}

/**
 * Parse a hook's stdin. `fallbackCwd` is used when the payload has no `cwd`
 * (CLAUDE_PROJECT_DIR, else the process's cwd).
 */
export function parseHookInput(text: string, fallbackCwd: string): ParsedInput {
  const read = readHookJson(text);
  if (!read.ok) return read;
  const { raw, event } = read;
  const tool = toolCall(raw, { input: "tool_input", response: "tool_response" }) ?? undefined;
  const calls = Array.isArray(raw.tool_calls) ? raw.tool_calls : [];
  const toolCalls = calls
    .map((c) => (isObj(c) ? toolCall(c, { input: "tool_input", response: "tool_response" }) : null))
    .filter((c): c is ClaudeToolCall => c !== null);
  return {
    ok: true,
    input: {
      event,
      session: str(raw.session_id) || "unknown-session",
      cwd: str(raw.cwd) || fallbackCwd,
      transcriptPath: str(raw.transcript_path),
      permissionMode: str(raw.permission_mode),
      tool,
      toolCalls,
      lastAssistantMessage: str(raw.last_assistant_message),
      stopHookActive: raw.stop_hook_active === true,
      source: str(raw.source),
      fromCursor: CURSOR_FIELDS.some((key) => raw[key] !== undefined)
        ? [
            ...(Array.isArray(raw.workspace_roots) ? raw.workspace_roots : []).filter(
              (r): r is string => typeof r === "string" && r !== "",
            ),
            str(raw.cwd) || fallbackCwd,
          ]
        : null,
    },
  };
}
