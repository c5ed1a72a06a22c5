import { isObject, type JsonObject } from "../util/json-file.ts";

export interface HookAnswer {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Exit 0 only; else null. */
export function answerJson(answer: HookAnswer): JsonObject | null {
  if (answer.code !== 0 || answer.stdout.trim() === "") return null;
  try {
    const value: unknown = JSON.parse(answer.stdout);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

export function nested(json: JsonObject | null, outer: string, inner: string): string | null {
  const o = json?.[outer];
  const v = isObject(o) ? o[inner] : undefined;
  return typeof v === "string" && v !== "" ? v : null;
}

export function field(json: JsonObject | null, name: string): string | null {
  const v = json?.[name];
  return typeof v === "string" && v !== "" ? v : null;
}

/** A PreToolUse deny's reason in Claude Code's schema (Claude Code, Codex, Qwen). */
export function preToolUseDenyReason(json: JsonObject | null): string | null {
  return nested(json, "hookSpecificOutput", "permissionDecision") === "deny"
    ? nested(json, "hookSpecificOutput", "permissionDecisionReason")
    : null;
}

export function blockReason(json: JsonObject | null): string | null {
  return field(json, "decision") === "block" ? field(json, "reason") : null;
}

/** `exit2`: the agent hands an exit 2's stderr to the model (any other non-zero code reaches nothing). */
export function claudeSchemaText(
  answer: HookAnswer,
  when: "before" | "after",
  after: (json: JsonObject | null) => string | null,
  exit2 = true,
): string | null {
  if (exit2 && answer.code === 2) return answer.stderr.trim() || null;
  const json = answerJson(answer);
  return when === "before" ? preToolUseDenyReason(json) : after(json);
}

/** Claude Code's schema (Claude Code, Gemini, Qwen). */
export const proofSession = (cwd: string, event: string) => ({
  session_id: "cpilot-proof",
  transcript_path: "",
  cwd,
  hook_event_name: event,
});
