import { readJsonObject, str } from "../../hook/hook-input.ts";
import { isObject, type JsonObject } from "../../util/json-file.ts";

/**
 * What Copilot CLI 1.0.102 writes on a hook's stdin (seen): camelCase, no event name (told
 * by the fields, or `hookEventName` if a later version sends one). `toolArgs` came as an
 * object while its docs show a JSON string, so both are read.
 */
export interface CopilotHookInput {
  readonly event:
    | "sessionStart"
    | "userPromptSubmitted"
    | "preToolUse"
    | "postToolUse"
    | "agentStop"
    | "subagentStop"
    | "other";
  readonly session: string;
  readonly cwd: string;
  readonly toolName: string;
  readonly toolArgs: JsonObject;
  readonly toolResult: JsonObject | undefined;
  /** subagentStop: the subagent (its id, else its name). */
  readonly agentId: string | undefined;
}

export type ParsedCopilot = { ok: true; input: CopilotHookInput } | { ok: false; error: string };

const EVENTS = [
  "sessionStart",
  "userPromptSubmitted",
  "preToolUse",
  "postToolUse",
  "agentStop",
  "subagentStop",
] as const;

function eventOf(raw: JsonObject): CopilotHookInput["event"] {
  const named = str(raw.hookEventName) ?? str(raw.hook_event_name);
  if (named !== undefined) {
    const known = EVENTS.find((e) => e.toLowerCase() === named.toLowerCase());
    return known ?? "other";
  }
  if (raw.toolResult !== undefined) return "postToolUse";
  if (typeof raw.toolName === "string") return "preToolUse";
  if (typeof raw.prompt === "string") return "userPromptSubmitted";
  // a subagent's stop has the same fields plus the subagent's name
  const stop = typeof raw.stopReason === "string" || typeof raw.stopHookActive === "boolean";
  if (stop)
    return raw.agentName === undefined && raw.agentType === undefined
      ? "agentStop"
      : "subagentStop";
  if (typeof raw.source === "string") return "sessionStart";
  return "other";
}

function argsOf(value: unknown): JsonObject {
  if (isObject(value)) return value;
  if (typeof value !== "string") return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

/** `fallbackCwd` when the payload has no cwd. */
export function parseCopilotInput(text: string, fallbackCwd: string): ParsedCopilot {
  const read = readJsonObject(text);
  if (!read.ok) return read;
  const { raw } = read;
  return {
    ok: true,
    input: {
      event: eventOf(raw),
      session: str(raw.sessionId) || "unknown-session",
      cwd: str(raw.cwd) || fallbackCwd,
      toolName: str(raw.toolName) ?? "",
      toolArgs: argsOf(raw.toolArgs),
      toolResult: isObject(raw.toolResult) ? raw.toolResult : undefined,
      agentId: str(raw.agentId) || str(raw.agentName) || undefined,
    },
  };
}
