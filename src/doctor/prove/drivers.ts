/** Agents whose real CLI `doctor --prove` can run against cpilot's model; the rest get the hook-level proof. */
import type { Agent } from "../../agents/contract.ts";
import type { LiveDriver } from "../../proof/live-driver.ts";

export function liveDriver(agent: Agent): Promise<LiveDriver> | null {
  return agent.liveProof?.() ?? null;
}
