import type { ResolvedConfig } from "../config/resolve.ts";
import type { GateDecision, PendingWrite } from "../model/gate-types.ts";
import type { AgentProtocol } from "../model/hook.ts";
import { gateEdit } from "./edit-gate.ts";

/** What the gate said about every write of one tool call (a patch may write several files). */
export type GateVerdict =
  | { readonly kind: "allow" }
  | { readonly kind: "deny"; readonly reason: string; readonly hint?: string }
  | {
      readonly kind: "modify";
      readonly changes: readonly { write: PendingWrite; decision: GateDecision }[];
    };

/**
 * Run the gate for each write of a tool call, in order. The first deny wins (the call
 * must not run at all); otherwise the writes a plugin changed, or plain allow. `cwd`: the
 * agent's folder, which relative paths are taken from.
 */
export async function gateAll(
  agent: AgentProtocol,
  config: ResolvedConfig,
  writes: readonly PendingWrite[],
  cwd?: string,
): Promise<GateVerdict> {
  const changes: { write: PendingWrite; decision: GateDecision }[] = [];
  for (const write of writes) {
    const decision = await gateEdit(agent, config, write, cwd);
    if (decision.decision === "deny") {
      return {
        kind: "deny",
        reason: decision.reason,
        ...(decision.hint ? { hint: decision.hint } : {}),
      };
    }
    if (decision.modified !== undefined) changes.push({ write, decision });
  }
  return changes.length === 0 ? { kind: "allow" } : { kind: "modify", changes };
}
