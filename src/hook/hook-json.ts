import { isObject, type JsonObject } from "../util/json-file.ts";

/** A string field, or undefined for anything else. */
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** A hook payload as one JSON object; an error message for anything else. */
export function readJsonObject(
  text: string,
): { ok: true; raw: JsonObject } | { ok: false; error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    const what = text.trim() === "" ? "stdin was empty" : (err as Error).message;
    return { ok: false, error: `Cannot read the hook input: ${what}` };
  }
  if (!isObject(raw)) return { ok: false, error: "Cannot read the hook input: not a JSON object" };
  return { ok: true, raw };
}

/**
 * The first step of every agent's hook payload: JSON, an object, with a `hook_event_name`.
 * Checked by hand (no schema library on the hot path); a bad payload is an error message,
 * never a crash.
 */
export function readHookJson(
  text: string,
): { ok: true; raw: JsonObject; event: string } | { ok: false; error: string } {
  const read = readJsonObject(text);
  if (!read.ok) return read;
  const { raw } = read;
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

/** A payload in Claude Code's schema: the event, the tool fields, and the tool's response as `response` reads it. */
export interface ToolHookPayload<R> {
  readonly event: string;
  readonly session: string;
  readonly cwd: string;
  readonly toolName: string;
  readonly toolInput: JsonObject;
  readonly toolResponse: R;
}

/** Parse a payload in Claude Code's schema (Codex, Gemini, Qwen); `fallbackCwd` when it has no cwd. */
export function parseToolHookPayload<R>(
  text: string,
  fallbackCwd: string,
  response: (value: unknown) => R,
): { ok: true; input: ToolHookPayload<R> } | { ok: false; error: string } {
  const read = readHookJson(text);
  if (!read.ok) return read;
  const { raw, event } = read;
  return {
    ok: true,
    input: {
      event,
      ...toolHookFields(raw, fallbackCwd),
      toolResponse: response(raw.tool_response),
    },
  };
}

/** A `tool_response` object (Gemini's and Qwen's `{llmContent, returnDisplay, error?}`), else undefined. */
export const objectResponse = (value: unknown): JsonObject | undefined =>
  isObject(value) ? value : undefined;
