import type { AgentProtocol } from "../../model/hook.ts";

/** The reason reaches the model as "Denied by preToolUse hook: <reason>" (1.0.102, seen). */
export function copilotDeny(reason: string): Record<string, unknown> {
  return { permissionDecision: "deny", permissionDecisionReason: reason };
}

export const copilotProtocol: AgentProtocol = {
  preWriteEvent: "preToolUse",
  denyForm: copilotDeny,
  emptyJson: null,
  stateDirs: () => [],
};
