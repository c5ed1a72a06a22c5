/** `cpilot install <agent> --mcp`: merged into what is there, idempotent; uninstall removes cpilot's entry only. */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { basename, dirname } from "node:path";
import { AGENTS, agentNamed } from "../../agents/all-agents.ts";
import type { Agent, McpTarget } from "../../agents/contract.ts";
import { writeFileAtomic } from "../../util/atomic-write.ts";
import { CpilotError } from "../../util/errors.ts";
import { removeTomlServer, upsertTomlServer } from "./codex-toml.ts";
import { type EntryAction, removeJsonServer, upsertJsonServer } from "./json-servers.ts";

export function mcpAgentNames(): string[] {
  return AGENTS.filter((agent) => agent.mcp !== null).map((agent) => agent.name);
}

export const SERVER_NAME = "cpilot";

export interface McpInstallOptions {
  /** Where the project-scoped files go. */
  readonly root: string;
  /** Default: this binary when compiled, else "cpilot". */
  readonly command?: string;
  /** Default: the agent's (`McpTarget.args`). */
  readonly args?: readonly string[];
  /** For CODEX_HOME / HOME lookups. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The person's own config, where the agent has one. */
  readonly user?: boolean;
}

export interface McpInstallResult {
  readonly agent: string;
  /** The file written (or that would have been). */
  readonly path: string;
  readonly action: EntryAction;
  readonly command: string;
  readonly args: readonly string[];
}

/** Not bun or node running the source. */
function isCompiled(execPath: string): boolean {
  const name = basename(execPath).toLowerCase();
  return !["bun", "bun.exe", "node", "node.exe", "deno", "deno.exe"].includes(name);
}

/** An error naming the agents that have one. */
function mcpAgent(name: string): { agent: Agent; target: McpTarget } {
  const agent = agentNamed(name);
  if (agent?.mcp == null) {
    const known = mcpAgentNames();
    throw new CpilotError(`Cannot set up MCP for "${name}": cpilot knows ${known.join(", ")}`, {
      hint: `usage: cpilot install <${known.join("|")}> --mcp`,
    });
  }
  return { agent, target: agent.mcp };
}

/** With `user`, the person's own (an agent without one refuses). */
function mcpConfigPath(agent: string, target: McpTarget, options: McpInstallOptions): string {
  const env = options.env ?? process.env;
  if (options.user !== true) return target.configPath(options.root, env);
  if (target.userConfigPath === undefined)
    throw new CpilotError(
      `Cannot use --user with --mcp for ${agent}: its MCP servers live in the project`,
      {
        hint: `run \`cpilot install ${agent} --mcp\` without --user`,
      },
    );
  return target.userConfigPath(env);
}

function serverCommand(
  target: McpTarget,
  options: McpInstallOptions,
): { command: string; args: string[] } {
  const command = options.command ?? (isCompiled(process.execPath) ? process.execPath : "cpilot");
  return { command, args: [...(options.args ?? target.args)] };
}

/**
 * Into the project's `.mcp.json`, `.gemini/settings.json`, `.cursor/mcp.json` or
 * `.codex/config.toml` (Codex's `~/.codex/config.toml` with `user`). Idempotent.
 *
 * @example
 * installMcp("claude", { root: "/repo" });
 * // { agent: "claude", path: "/repo/.mcp.json", action: "created", command: "cpilot", args: ["mcp"] }
 */
export function installMcp(name: string, options: McpInstallOptions): McpInstallResult {
  const { agent: found, target } = mcpAgent(name);
  const agent = found.name;
  const path = mcpConfigPath(found.name, target, options);
  const { command, args } = serverCommand(target, options);
  if (target.format === "json") {
    const entry = { ...target.entryFields, command, args };
    const action = upsertJsonServer(path, SERVER_NAME, entry);
    return { agent, path, action, command, args };
  }
  const before = existsSync(path) ? readFileSync(path, "utf8") : "";
  const { text, action } = upsertTomlServer(before, SERVER_NAME, { command, args }, path);
  if (action !== "unchanged") {
    mkdirSync(dirname(path), { recursive: true });
    writeFileAtomic(path, text, { throughSymlink: true });
  }
  return {
    agent,
    path,
    action: existsSync(path) || action !== "created" ? action : "created",
    command,
    args,
  };
}

/** Remove cpilot's MCP server entry (and nothing else) from an agent's config. */
export function uninstallMcp(name: string, options: McpInstallOptions): McpInstallResult {
  const { agent: found, target } = mcpAgent(name);
  const agent = found.name;
  const path = mcpConfigPath(found.name, target, options);
  const { command, args } = serverCommand(target, options);
  if (target.format === "json")
    return { agent, path, action: removeJsonServer(path, SERVER_NAME), command, args };
  if (!existsSync(path)) return { agent, path, action: "absent", command, args };
  const { text, action } = removeTomlServer(readFileSync(path, "utf8"), SERVER_NAME, path);
  if (action === "removed") {
    if (text.trim() === "") rmSync(path);
    else writeFileAtomic(path, text, { throughSymlink: true });
  }
  return { agent, path, action, command, args };
}

/** null when the agent has none. */
export function mcpInstallNote(result: McpInstallResult): string | null {
  if (result.action === "unchanged") return null;
  return agentNamed(result.agent)?.mcp?.installNote ?? null;
}

export function describeMcpResult(result: McpInstallResult): string {
  const what = `${result.command} ${result.args.join(" ")}`;
  switch (result.action) {
    case "created":
      return `cpilot: created ${result.path} with the cpilot MCP server (${what})`;
    case "updated":
      return `cpilot: added the cpilot MCP server to ${result.path} (${what})`;
    case "unchanged":
      return `cpilot: the cpilot MCP server is already in ${result.path}: nothing changed`;
    case "removed":
      return `cpilot: removed the cpilot MCP server from ${result.path}`;
    case "absent":
      return `cpilot: no cpilot MCP server in ${result.path}: nothing changed`;
  }
}
