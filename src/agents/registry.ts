/**
 * Every agent cpilot drives, one line each. Adding an agent: its folder under src/agents/
 * with an `agent.ts` exporting its `Agent` (see ./contract.ts), and one line here. Nothing
 * outside src/agents/ imports an agent folder or names an agent; it asks this table.
 *
 * Each line loads its agent's folder on demand: a hook call (`cpilot hook <name>`) loads its
 * own agent only. Commands that walk every agent (install, doctor, run, MCP install) use
 * ./all-agents.ts, which loads them all from this table.
 */
import type { Agent } from "./contract.ts";

interface AgentLine {
  readonly load: () => Promise<Agent>;
  /**
   * The files in a project (`<folder>/<file>`, as found in any folder) that hold cpilot's
   * hooks or MCP entry for this agent: whoever writes them can turn the gate off, so the
   * gate lets only a person change them. Here, not in the agent's folder, so the gate knows
   * them all without loading every agent.
   */
  readonly hookFiles: readonly string[];
}

/** In the order people see them (usage lines, doctor). */
const AGENTS: Readonly<Record<string, AgentLine>> = {
  claude: {
    load: async () => (await import("./claude/agent.ts")).claude,
    hookFiles: [".claude/settings.json", ".claude/settings.local.json"],
  },
  gemini: {
    load: async () => (await import("./gemini/agent.ts")).gemini,
    hookFiles: [".gemini/settings.json"],
  },
  cursor: {
    load: async () => (await import("./cursor/agent.ts")).cursor,
    hookFiles: [".cursor/hooks.json"],
  },
  codex: {
    load: async () => (await import("./codex/agent.ts")).codex,
    hookFiles: [".codex/hooks.json", ".codex/config.toml"],
  },
  opencode: {
    load: async () => (await import("./opencode/agent.ts")).opencode,
    hookFiles: [".opencode/plugins/cpilot.ts"],
  },
  copilot: {
    load: async () => (await import("./copilot/agent.ts")).copilot,
    hookFiles: [".github/hooks/cpilot.json"],
  },
  qwen: {
    load: async () => (await import("./qwen/agent.ts")).qwen,
    hookFiles: [".qwen/settings.json"],
  },
};

/** The agents' names, in the order people see them (usage lines, doctor, "cpilot knows ..."). */
export const AGENT_NAMES: readonly string[] = Object.keys(AGENTS);

/** Each agent's loader by name: the table `cpilot hook` looks its agent up in (src/hook/call.ts). */
export const AGENT_LOADERS: Readonly<Record<string, () => Promise<Agent>>> = Object.fromEntries(
  Object.entries(AGENTS).map(([name, line]) => [name, line.load]),
);

/** Every agent's hook files, for the gate (src/config/hook-files.ts). */
export const AGENT_HOOK_FILES: readonly string[] = Object.values(AGENTS).flatMap(
  (line) => line.hookFiles,
);

/** The agent called `name`, its folder loaded now; undefined for a name cpilot does not know. */
export async function loadAgent(name: string): Promise<Agent | undefined> {
  const line = Object.hasOwn(AGENTS, name) ? AGENTS[name] : undefined;
  return line === undefined ? undefined : line.load();
}

/** The hook files of the agent called `name` (none for a name cpilot does not know). */
export function hookFilesOf(name: string): readonly string[] {
  return Object.hasOwn(AGENTS, name) ? (AGENTS[name]?.hookFiles ?? []) : [];
}
