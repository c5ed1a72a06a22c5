import type { ResolvedConfig } from "../config/resolve.ts";
import type { GateDecision, PendingWrite } from "../model/gate-types.ts";
import type { AgentProtocol, GateVerdict, HookEvent } from "../model/hook.ts";
import { gateEdit } from "./edit-gate.ts";

export type { GateVerdict } from "../model/hook.ts";

/** Denied when the translator could not read what the call writes. */
export function gateEvent(
  agent: AgentProtocol,
  config: ResolvedConfig,
  event: HookEvent,
): Promise<GateVerdict> | GateVerdict {
  if (event.refused !== undefined) return { kind: "deny", reason: event.refused };
  const writes = event.writes ?? [];
  if (writes.length === 0) return { kind: "allow" };
  return gateAll(agent, config, writes, event.cwd);
}

/** The first deny wins (the call must not run at all). `cwd`: relative paths are taken from it. */
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
        ...(decision.askPerson === true ? { askPerson: true } : {}),
      };
    }
    if (decision.modified !== undefined) changes.push({ write, decision });
  }
  return changes.length === 0 ? { kind: "allow" } : { kind: "modify", changes };
}
