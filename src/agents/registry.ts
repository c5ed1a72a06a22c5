/**
 * Every agent cpilot drives, one line each; adding one is its folder (see ./contract.ts)
 * and a line here. Nothing outside src/agents/ imports an agent folder. Each line loads its
 * folder on demand, so a hook call loads its own agent only.
 */
import type { Agent } from "./contract.ts";

interface AgentLine {
  readonly load: () => Promise<Agent>;
  /**
   * The project files (`<folder>/<file>`, in any folder) that hold this agent's cpilot hooks
   * or MCP entry: whoever writes them can turn the gate off, so only a person may change
   * them. Here, so the gate knows them all without loading every agent.
   */
  readonly hookFiles: readonly string[];
}

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

/** In the order people see them (usage lines, doctor). */
export const AGENT_NAMES: readonly string[] = Object.keys(AGENTS);

/** The table `cpilot hook` looks its agent up in. */
export const AGENT_LOADERS: Readonly<Record<string, () => Promise<Agent>>> = Object.fromEntries(
  Object.entries(AGENTS).map(([name, line]) => [name, line.load]),
);

/** For the gate (src/config/hook-files.ts). */
export const AGENT_HOOK_FILES: readonly string[] = Object.values(AGENTS).flatMap(
  (line) => line.hookFiles,
);

/** Loads its folder now; undefined for a name cpilot does not know. */
export async function loadAgent(name: string): Promise<Agent | undefined> {
  const line = Object.hasOwn(AGENTS, name) ? AGENTS[name] : undefined;
  return line === undefined ? undefined : line.load();
}

/** None for a name cpilot does not know. */
export function hookFilesOf(name: string): readonly string[] {
  return Object.hasOwn(AGENTS, name) ? (AGENTS[name]?.hookFiles ?? []) : [];
}
