import { isObject } from "../_shared/json-file.ts";

/**
 * What Codex CLI writes on a hook's stdin (Claude Code's schema): `session_id, cwd,
 * hook_event_name, tool_name, tool_input, tool_use_id`, PostToolUse adds `tool_response`.
 */
export interface CodexHookInput {
  readonly event: string;
  readonly session: string;
  readonly cwd: string;
  readonly toolName: string;
  readonly toolInput: Record<string, unknown>;
  readonly toolResponse: unknown;
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

export function parseCodexInput(
  text: string,
  fallbackCwd: string,
): { ok: true; input: CodexHookInput } | { ok: false; error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    const what = text.trim() === "" ? "stdin was empty" : (err as Error).message;
    return { ok: false, error: `Cannot read the hook input: ${what}` };
  }
  if (!isObject(raw)) return { ok: false, error: "Cannot read the hook input: not a JSON object" };
  const event = str(raw.hook_event_name);
  if (!event) return { ok: false, error: "Cannot read the hook input: no hook_event_name" };
  return {
    ok: true,
    input: {
      event,
      session: str(raw.session_id) || "unknown-session",
      cwd: str(raw.cwd) || fallbackCwd,
      toolName: str(raw.tool_name) ?? "",
      toolInput: isObject(raw.tool_input) ? raw.tool_input : {},
      toolResponse: raw.tool_response,
    },
  };
}
