import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isObject } from "../agents/_shared/json-file.ts";
import { type AgentName, hookPlaces } from "../cli/agent-wiring.ts";
import { type McpAgent, mcpConfigPath, SERVER_NAME } from "../mcp/install/index.ts";
import { onPath } from "./callback-command.ts";
import { brokenHookCommand } from "./hook-command-check.ts";
import type { AgentCheck } from "./types.ts";

const CLI_NAMES: Record<AgentName, string[]> = {
  claude: ["claude"],
  gemini: ["gemini"],
  cursor: ["cursor-agent", "cursor"],
  codex: ["codex"],
  opencode: ["opencode"],
};
const DIRS: Record<AgentName, string> = {
  claude: ".claude",
  gemini: ".gemini",
  cursor: ".cursor",
  codex: ".codex",
  opencode: ".opencode",
};

function mcpWired(
  agent: AgentName,
  root: string,
  env: NodeJS.ProcessEnv,
): { wired: boolean; path: string | null } | null {
  if (agent === "opencode") return null;
  const path = mcpConfigPath(agent as McpAgent, { root, env });
  if (!existsSync(path)) return { wired: false, path: null };
  let text = "";
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { wired: false, path };
  }
  if (agent === "codex") {
    return { wired: new RegExp(`^\\s*\\[mcp_servers\\.${SERVER_NAME}\\]`, "m").test(text), path };
  }
  try {
    const json = JSON.parse(text) as unknown;
    const servers = isObject(json) && isObject(json.mcpServers) ? json.mcpServers : {};
    return { wired: SERVER_NAME in servers, path };
  } catch {
    return { wired: false, path };
  }
}

/** Is this agent here, and is cpilot wired into it? Null when the agent is not found. */
export function checkAgent(
  agent: AgentName,
  root: string,
  home: string,
  env: NodeJS.ProcessEnv,
): AgentCheck | null {
  const foundBy: string[] = [];
  const inProject = existsSync(join(root, DIRS[agent]));
  if (inProject) foundBy.push(`${DIRS[agent]}/ in the project`);
  const homeDir =
    agent === "opencode" ? join(home, ".config", "opencode") : join(home, DIRS[agent]);
  if (existsSync(homeDir)) foundBy.push(`${homeDir}`);
  const cli = CLI_NAMES[agent].map((n) => onPath(n, env)).find((p) => p !== null);
  if (cli) foundBy.push(`${cli}`);
  if (foundBy.length === 0) return null;
  const places = hookPlaces(agent, root, home, env);
  const wiredPlace = places.find((p) => p.wired);
  const broken =
    places
      .filter((p) => p.wired)
      .map((p) => brokenHookCommand(p.path, agent, root, env))
      .find((p) => p !== null) ?? null;
  const hooks = { wired: wiredPlace !== undefined, path: wiredPlace?.path ?? null };
  const mcp = mcpWired(agent, root, env);
  const wired = hooks.wired || mcp?.wired === true;
  return {
    agent,
    foundBy,
    hooks,
    mcp,
    problem:
      broken ??
      (!wired && inProject
        ? `cpilot is not wired into ${agent}: run \`cpilot install ${agent}\``
        : null),
  };
}
