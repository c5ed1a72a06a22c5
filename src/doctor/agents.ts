import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Agent, HookPlace } from "../agents/contract.ts";
import { SERVER_NAME } from "../mcp/install/index.ts";
import { isObject } from "../util/json-file.ts";
import { onPath } from "./callback-command.ts";
import { brokenHookCommand } from "./hook-command-check.ts";
import { missingHooks } from "./missing-hooks.ts";
import { liveDriver } from "./prove/drivers.ts";
import type { AgentCheck } from "./types.ts";

/** In the project's config, else the person's own (where the agent has one). */
function mcpWired(
  agent: Agent,
  root: string,
  env: NodeJS.ProcessEnv,
): { wired: boolean; path: string | null } | null {
  if (agent.mcp === null) return null;
  const project = mcpWiredIn(agent, agent.mcp.configPath(root, env));
  if (project.wired || agent.mcp.userConfigPath === undefined) return project;
  const user = mcpWiredIn(agent, agent.mcp.userConfigPath(env));
  return user.wired ? user : project;
}

function mcpWiredIn(agent: Agent, path: string): { wired: boolean; path: string | null } {
  if (!existsSync(path)) return { wired: false, path: null };
  let text = "";
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { wired: false, path };
  }
  if (agent.mcp?.format === "toml") {
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

/** Read by doctor --prove too. */
async function hookSwitches(
  agent: Agent,
  root: string,
  home: string,
  env: NodeJS.ProcessEnv,
): Promise<string[]> {
  const driver = liveDriver(agent);
  return driver === null ? [] : ((await driver).hookSwitches?.(root, home, env) ?? []);
}

/** A plugin that differs, a hook map that lacks hooks. */
async function outdatedHooks(agent: Agent, places: readonly HookPlace[]): Promise<string | null> {
  const differs = places.find((p) => p.wired && p.outdated !== undefined)?.outdated;
  if (differs !== undefined) return differs;
  const written = await agent.writtenHooks?.();
  if (written === undefined) return null;
  for (const place of places.filter((p) => p.wired)) {
    const missing = missingHooks(place, written);
    if (missing.length > 0)
      return `the hooks in ${place.path} are from an older cpilot: it has no cpilot hook for ${missing.join(", ")}; run \`cpilot install ${agent.name}\` again`;
  }
  return null;
}

/** null when the agent is not found. */
export async function checkAgent(
  agent: Agent,
  root: string,
  home: string,
  env: NodeJS.ProcessEnv,
): Promise<AgentCheck | null> {
  const foundBy: string[] = [];
  const inProject = existsSync(join(root, agent.projectDir));
  if (inProject) foundBy.push(`${agent.projectDir}/ in the project`);
  const homeDir = agent.homeDir(home, env);
  if (existsSync(homeDir)) foundBy.push(`${homeDir}`);
  const cli = agent.programs.map((n) => onPath(n, env)).find((p) => p !== null);
  if (cli) foundBy.push(`${cli}`);
  if (foundBy.length === 0) return null;
  const places = await agent.hookPlaces(root, home, env);
  const wiredPlace = places.find((p) => p.wired);
  const broken =
    places
      .filter((p) => p.wired)
      .map((p) => brokenHookCommand(p, agent.name, root, env))
      .find((p) => p !== null) ?? null;
  const hooks = { wired: wiredPlace !== undefined, path: wiredPlace?.path ?? null };
  const inactive = places.find((p) => p.wired && p.inactive !== undefined)?.inactive;
  const skipped =
    inactive === undefined || places.some((p) => p.wired && p.inactive === undefined)
      ? null
      : `${inactive.reason}: run \`${inactive.step}\``;
  // written and trusted is not enough either: the agent's own settings may turn hooks off
  const switchedOff =
    hooks.wired && skipped === null
      ? ((await hookSwitches(agent, root, home, env))[0] ?? null)
      : null;
  const openPlace = places.find((p) => p.wired && p.gateFailsOpen !== undefined);
  const failsOpen =
    openPlace === undefined
      ? null
      : `the write gate in ${openPlace.path} does not fail closed: ${openPlace.gateFailsOpen}; run \`cpilot install ${agent.name}\` again`;
  const outdated = await outdatedHooks(agent, places);
  const mcp = mcpWired(agent, root, env);
  const wired = hooks.wired || mcp?.wired === true;
  const addOns = (await agent.addOns?.(home, env)) ?? [];
  return {
    agent: agent.name,
    foundBy,
    hooks,
    mcp,
    addOns,
    problem:
      broken ??
      skipped ??
      switchedOff ??
      failsOpen ??
      outdated ??
      (!wired && inProject
        ? `cpilot is not wired into ${agent.name}: run \`cpilot install ${agent.name}\``
        : null),
  };
}
