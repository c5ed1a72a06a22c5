/** Reading hook answers the way agents do, for the agents' `DeliveryProof.modelText`. */
import { isObject, type JsonObject } from "../util/json-file.ts";

/** A hook command's answer: exit code, stdout and stderr as text. */
export interface HookAnswer {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The answer's stdout as one JSON object (exit 0 only), else null. */
export function answerJson(answer: HookAnswer): JsonObject | null {
  if (answer.code !== 0 || answer.stdout.trim() === "") return null;
  try {
    const value: unknown = JSON.parse(answer.stdout);
    return isObject(value) ? value : null;
  } catch {
    return null;
  }
}

/** A string field of an object field: `hookSpecificOutput.additionalContext`. */
export function nested(json: JsonObject | null, outer: string, inner: string): string | null {
  const o = json?.[outer];
  const v = isObject(o) ? o[inner] : undefined;
  return typeof v === "string" && v !== "" ? v : null;
}

/** A top-level string field. */
export function field(json: JsonObject | null, name: string): string | null {
  const v = json?.[name];
  return typeof v === "string" && v !== "" ? v : null;
}

/** Claude Code's schema (Claude Code, Codex, Qwen): a PreToolUse deny's reason. */
export function preToolUseDenyReason(json: JsonObject | null): string | null {
  return nested(json, "hookSpecificOutput", "permissionDecision") === "deny"
    ? nested(json, "hookSpecificOutput", "permissionDecisionReason")
    : null;
}

/** A `decision: "block"` answer's reason. */
export function blockReason(json: JsonObject | null): string | null {
  return field(json, "decision") === "block" ? field(json, "reason") : null;
}

/**
 * What the model reads of an answer in Claude Code's schema: before the write, a PreToolUse
 * deny's reason; after it, what `after` reads. `exit2`: the agent hands an exit 2's stderr
 * to the model (any other non-zero code reaches nothing).
 */
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

/** The session fields of a played payload in Claude Code's schema (Claude Code, Gemini, Qwen). */
export const proofSession = (cwd: string, event: string) => ({
  session_id: "cpilot-proof",
  transcript_path: "",
  cwd,
  hook_event_name: event,
});
