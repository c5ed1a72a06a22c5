/**
 * Every agent cpilot drives, one line each. Adding an agent: its folder under src/agents/
 * with an `agent.ts` exporting its `Agent` (see ./contract.ts), and one line here. Nothing
 * outside src/agents/ imports an agent folder or names an agent; it asks this table.
 *
 * Each line loads its agent's folder on demand: a hook call (`cpilot hook <name>`, the hook
 * server) loads its own agent only. Commands that walk every agent (install, doctor, run,
 * MCP install) use ./all-agents.ts, which loads them all from this table.
 */
import type { Agent } from "./contract.ts";

/** In the order people see them (usage lines, doctor). */
const AGENT_LOADERS: Readonly<Record<string, () => Promise<Agent>>> = {
  claude: async () => (await import("./claude/agent.ts")).claude,
  gemini: async () => (await import("./gemini/agent.ts")).gemini,
  cursor: async () => (await import("./cursor/agent.ts")).cursor,
  codex: async () => (await import("./codex/agent.ts")).codex,
  opencode: async () => (await import("./opencode/agent.ts")).opencode,
  copilot: async () => (await import("./copilot/agent.ts")).copilot,
  qwen: async () => (await import("./qwen/agent.ts")).qwen,
};

/** The agents' names, in the order people see them (usage lines, doctor, "cpilot knows ..."). */
export const AGENT_NAMES: readonly string[] = Object.keys(AGENT_LOADERS);

/** The agent called `name`, its folder loaded now; undefined for a name cpilot does not know. */
export async function loadAgent(name: string): Promise<Agent | undefined> {
  const load = Object.hasOwn(AGENT_LOADERS, name) ? AGENT_LOADERS[name] : undefined;
  return load === undefined ? undefined : load();
}
