import type { HookReply, StopVerdict } from "../../model/hook.ts";

/** Claude Code's Stop schema (Codex and Qwen share it): `reason` becomes the model's next turn. */
export function decisionBlockStop(verdict: StopVerdict): HookReply {
  if (verdict.block) return { json: { decision: "block", reason: verdict.reason } };
  return verdict.notes === null ? { json: null } : { json: { systemMessage: verdict.notes } };
}
