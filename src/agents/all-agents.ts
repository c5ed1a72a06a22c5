/**
 * Every agent loaded, for the commands that walk the whole list (install, doctor, `cpilot
 * run`, MCP install). The hook path does not import this: it loads its one agent through
 * ./registry.ts.
 */
import type { Agent } from "./contract.ts";
import { AGENT_NAMES, loadAgent } from "./registry.ts";

/** In the order people see them (usage lines, doctor). */
export const AGENTS: readonly Agent[] = (await Promise.all(AGENT_NAMES.map(loadAgent))).filter(
  (agent): agent is Agent => agent !== undefined,
);

/** The agent called `name`, or undefined. */
export function agentNamed(name: string): Agent | undefined {
  return AGENTS.find((agent) => agent.name === name);
}

/** The agent a command starts, from its file name (`cursor-agent` is Cursor's CLI), or undefined. */
export function agentOfCommand(command: string): Agent | undefined {
  const name = command.split("/").pop()?.toLowerCase() ?? "";
  return AGENTS.find((agent) => agent.isCommand(name));
}
