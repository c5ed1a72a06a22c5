/** Every agent loaded, for commands that walk the list; the hook path loads one agent through ./registry.ts. */
import type { Agent } from "./contract.ts";
import { AGENT_NAMES, loadAgent } from "./registry.ts";

export const AGENTS: readonly Agent[] = (await Promise.all(AGENT_NAMES.map(loadAgent))).filter(
  (agent): agent is Agent => agent !== undefined,
);

export function agentNamed(name: string): Agent | undefined {
  return AGENTS.find((agent) => agent.name === name);
}

/** From the command's file name (`cursor-agent` is Cursor's CLI). */
export function agentOfCommand(command: string): Agent | undefined {
  const name = command.split("/").pop()?.toLowerCase() ?? "";
  return AGENTS.find((agent) => agent.isCommand(name));
}
