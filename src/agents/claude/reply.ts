/**
 * What a hook prints: Claude Code's JSON protocol on stdout (exit 0 always; exit 1 is
 * silently dropped and exit 2 ends the loop in PostToolBatch), plus text for people on stderr.
 */
import type { HookReply } from "../../model/hook.ts";

/** Nothing on stdout. */
export const NO_REPLY: HookReply = { json: null };

/** Text the model reads after the tool result (PostToolUse, PostToolBatch, SessionStart, UserPromptSubmit, PreToolUse). */
export function contextReply(event: string, text: string): HookReply {
  if (text === "") return NO_REPLY;
  return { json: { hookSpecificOutput: { hookEventName: event, additionalContext: text } } };
}

/** PostToolUse "block": the edit happened; the model must read this and act on it. */
export function blockReply(reason: string): HookReply {
  return { json: { decision: "block", reason } };
}

/** PreToolUse: deny, ask or allow the tool call, optionally with changed input. */
export function permissionReply(options: {
  decision: "allow" | "deny" | "ask";
  reason: string;
  updatedInput?: Record<string, unknown>;
  additionalContext?: string;
  /** Shown to the person (a hint about which config key changes this). */
  systemMessage?: string;
}): HookReply {
  const out: Record<string, unknown> = {
    hookEventName: "PreToolUse",
    permissionDecision: options.decision,
    permissionDecisionReason: options.reason,
  };
  if (options.updatedInput !== undefined) out.updatedInput = options.updatedInput;
  if (options.additionalContext) out.additionalContext = options.additionalContext;
  const json: Record<string, unknown> = { hookSpecificOutput: out };
  if (options.systemMessage) json.systemMessage = options.systemMessage;
  return { json };
}

/** Stop: block (the agent goes on with `reason`) or let it stop, telling the person something. */
export function stopReply(options: {
  block: boolean;
  reason?: string;
  systemMessage?: string;
}): HookReply {
  const json: Record<string, unknown> = {};
  if (options.block) {
    json.decision = "block";
    json.reason = options.reason ?? "";
  }
  if (options.systemMessage) json.systemMessage = options.systemMessage;
  return Object.keys(json).length === 0 ? NO_REPLY : { json };
}
