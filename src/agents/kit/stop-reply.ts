import type { HookReply, StopVerdict } from "../../model/hook.ts";

/**
 * The stop gate's verdict in Claude Code's Stop schema, which Codex and Qwen Code share:
 * `decision: "block"` with a `reason` that becomes the model's next turn; `systemMessage`
 * shows the person what was left when it may stop.
 */
export function decisionBlockStop(verdict: StopVerdict): HookReply {
  if (verdict.block) return { json: { decision: "block", reason: verdict.reason } };
  return verdict.notes === null ? { json: null } : { json: { systemMessage: verdict.notes } };
}
