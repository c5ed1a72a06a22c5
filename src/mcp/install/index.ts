/**
 * `cpilot install <agent> --mcp`: register `cpilot mcp` as an MCP server in an agent's
 * config, merging into what is there (other servers and settings stay), idempotent;
 * uninstall removes cpilot's entry only.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { writeFileAtomic } from "../../util/atomic-write.ts";
import { CpilotError } from "../../util/errors.ts";
import { removeTomlServer, upsertTomlServer } from "./codex-toml.ts";
import { type EntryAction, removeJsonServer, upsertJsonServer } from "./json-servers.ts";

/** Agents whose MCP config cpilot can write. */
export const MCP_AGENTS = ["claude", "gemini", "cursor", "codex"] as const;
export type McpAgent = (typeof MCP_AGENTS)[number];

/** Cursor's variable for the open project, expanded by Cursor in mcp.json args. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: Cursor's own syntax, not a template
const CURSOR_WORKSPACE = "${workspaceFolder}";

/** The name of cpilot's entry in every agent's server list. */
export const SERVER_NAME = "cpilot";

export interface McpInstallOptions {
  /** Project root: where the project-scoped files go (.mcp.json, .gemini/, .cursor/). */
  readonly root: string;
  /** The command the agent runs. Default: this binary when cpilot is the compiled binary, else "cpilot". */
  readonly command?: string;
  /** Its arguments. Default ["mcp"] (Cursor: plus --root ${workspaceFolder}). */
  readonly args?: readonly string[];
  /** Environment for CODEX_HOME / HOME lookups. Default process.env. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

export interface McpInstallResult {
  readonly agent: McpAgent;
  /** The file written (or that would have been). */
  readonly path: string;
  readonly action: EntryAction;
  readonly command: string;
  readonly args: readonly string[];
}

/** True when this process is the compiled cpilot binary (not bun or node running the source). */
function isCompiled(execPath: string): boolean {
  const name = basename(execPath).toLowerCase();
  return !["bun", "bun.exe", "node", "node.exe", "deno", "deno.exe"].includes(name);
}

/** Where an agent keeps its MCP servers. */
export function mcpConfigPath(agent: McpAgent, options: McpInstallOptions): string {
  const env = options.env ?? process.env;
  switch (agent) {
    case "claude":
      return join(options.root, ".mcp.json");
    case "gemini":
      return join(options.root, ".gemini", "settings.json");
    case "cursor":
      return join(options.root, ".cursor", "mcp.json");
    case "codex":
      return join(env.CODEX_HOME || join(env.HOME || homedir(), ".codex"), "config.toml");
  }
}

function assertAgent(agent: string): asserts agent is McpAgent {
  if (!(MCP_AGENTS as readonly string[]).includes(agent)) {
    throw new CpilotError(
      `Cannot set up MCP for "${agent}": cpilot knows ${MCP_AGENTS.join(", ")}`,
      {
        hint: "usage: cpilot install <claude|gemini|cursor|codex> --mcp",
      },
    );
  }
}

function serverCommand(
  agent: McpAgent,
  options: McpInstallOptions,
): { command: string; args: string[] } {
  const command = options.command ?? (isCompiled(process.execPath) ? process.execPath : "cpilot");
  // Cursor may start servers outside the project; it expands ${workspaceFolder} in args.
  const args = options.args ?? (agent === "cursor" ? ["mcp", "--root", CURSOR_WORKSPACE] : ["mcp"]);
  return { command, args: [...args] };
}

function jsonEntry(agent: McpAgent, command: string, args: string[]): Record<string, unknown> {
  return agent === "claude" ? { type: "stdio", command, args } : { command, args };
}

/**
 * Add cpilot's MCP server to an agent's config: Claude Code `.mcp.json`, Gemini CLI
 * `.gemini/settings.json`, Cursor `.cursor/mcp.json` (all in the project), Codex
 * `~/.codex/config.toml` (`$CODEX_HOME`). Running it twice changes nothing.
 *
 * @example
 * installMcp("claude", { root: "/repo" });
 * // { agent: "claude", path: "/repo/.mcp.json", action: "created", command: "cpilot", args: ["mcp"] }
 */
export function installMcp(agent: string, options: McpInstallOptions): McpInstallResult {
  assertAgent(agent);
  const path = mcpConfigPath(agent, options);
  const { command, args } = serverCommand(agent, options);
  if (agent !== "codex") {
    const action = upsertJsonServer(path, SERVER_NAME, jsonEntry(agent, command, args));
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
export function uninstallMcp(agent: string, options: McpInstallOptions): McpInstallResult {
  assertAgent(agent);
  const path = mcpConfigPath(agent, options);
  const { command, args } = serverCommand(agent, options);
  if (agent !== "codex")
    return { agent, path, action: removeJsonServer(path, SERVER_NAME), command, args };
  if (!existsSync(path)) return { agent, path, action: "absent", command, args };
  const { text, action } = removeTomlServer(readFileSync(path, "utf8"), SERVER_NAME, path);
  if (action === "removed") {
    if (text.trim() === "") rmSync(path);
    else writeFileAtomic(path, text, { throughSymlink: true });
  }
  return { agent, path, action, command, args };
}

/** One line for people: what an install or uninstall did. */
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
