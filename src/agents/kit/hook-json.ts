import { isObject, type JsonObject } from "./json-file.ts";

/** A string field, or undefined for anything else. */
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/**
 * The first step of every agent's hook payload: JSON, an object, with a `hook_event_name`.
 * Checked by hand (no schema library on the hot path); a bad payload is an error message,
 * never a crash.
 */
export function readHookJson(
  text: string,
): { ok: true; raw: JsonObject; event: string } | { ok: false; error: string } {
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
  return { ok: true, raw, event };
}

/** The fields Claude Code's schema shares with Codex and Gemini: session, cwd, tool name and input. */
export function toolHookFields(
  raw: JsonObject,
  fallbackCwd: string,
): { session: string; cwd: string; toolName: string; toolInput: JsonObject } {
  return {
    session: str(raw.session_id) || "unknown-session",
    cwd: str(raw.cwd) || fallbackCwd,
    toolName: str(raw.tool_name) ?? "",
    toolInput: isObject(raw.tool_input) ? raw.tool_input : {},
  };
}
