/**
 * Is cpilot wired into an agent's config? Used by `cpilot doctor` and by `cpilot run`
 * (an agent whose hooks already call cpilot needs no watcher).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { hasGroupedHooks } from "../agents/_shared/grouped-hooks.ts";
import { isCpilotHookCommand } from "../agents/_shared/hook-command.ts";
import { isObject, readJsonObject } from "../agents/_shared/json-file.ts";
import { codexHooksPath } from "../agents/codex/install.ts";
import { cursorHooksPath } from "../agents/cursor/install.ts";
import { geminiSettingsPath } from "../agents/gemini/install.ts";
import { isCpilotPlugin, opencodePluginPath } from "../agents/opencode/install.ts";

export const AGENTS = ["claude", "gemini", "cursor", "codex", "opencode"] as const;
export type AgentName = (typeof AGENTS)[number];

/** One place an agent reads hooks (or a plugin) from, and whether cpilot is in it. */
export interface HookPlace {
  readonly path: string;
  readonly exists: boolean;
  readonly wired: boolean;
  /** Set when the file cannot be read as JSON. */
  readonly error?: string;
}

function jsonHas(path: string, check: (json: Record<string, unknown>) => boolean): HookPlace {
  if (!existsSync(path)) return { path, exists: false, wired: false };
  try {
    return { path, exists: true, wired: check(readJsonObject(path)) };
  } catch (err) {
    return { path, exists: true, wired: false, error: (err as Error).message };
  }
}

const grouped = (agent: string) => (json: Record<string, unknown>) =>
  hasGroupedHooks(json, (cmd) => isCpilotHookCommand(cmd, agent));

function cursorHas(json: Record<string, unknown>): boolean {
  const hooks = isObject(json.hooks) ? json.hooks : {};
  return Object.values(hooks).some(
    (list) =>
      Array.isArray(list) &&
      list.some((h) => isObject(h) && isCpilotHookCommand(h.command, "cursor")),
  );
}

/** Every file where `agent`'s hooks for this project may live (project first, then the user's). */
export function hookPlaces(
  agent: AgentName,
  root: string,
  home: string,
  env = process.env,
): HookPlace[] {
  switch (agent) {
    case "claude": {
      const user = join(env.CLAUDE_CONFIG_DIR || join(home, ".claude"), "settings.json");
      return [
        join(root, ".claude", "settings.json"),
        join(root, ".claude", "settings.local.json"),
        user,
      ].map((p) => jsonHas(p, grouped("claude")));
    }
    case "gemini":
      return ["project", "user"].map((s) =>
        jsonHas(geminiSettingsPath(s as "project" | "user", root, home), grouped("gemini")),
      );
    case "codex":
      return ["project", "user"].map((s) =>
        jsonHas(codexHooksPath(s as "project" | "user", root, home, env), grouped("codex")),
      );
    case "cursor":
      return ["project", "user"].map((s) =>
        jsonHas(cursorHooksPath(s as "project" | "user", root, home), cursorHas),
      );
    case "opencode":
      return ["project", "user"].map((s) => {
        const path = opencodePluginPath(s as "project" | "user", root, home, env);
        const exists = existsSync(path);
        return { path, exists, wired: exists && isCpilotPlugin(path) };
      });
  }
}

/** True when cpilot's hooks (or plugin) for `agent` are in one of its config files. */
export function hooksWired(agent: AgentName, root: string, home: string): boolean {
  return hookPlaces(agent, root, home).some((p) => p.wired);
}

/** The agent a command starts, from its name (`cursor-agent` is Cursor's CLI), or null. */
export function agentOfCommand(command: string): AgentName | null {
  const name = command.split("/").pop()?.toLowerCase() ?? "";
  if (name.includes("claude")) return "claude";
  if (name === "gemini") return "gemini";
  if (name === "codex") return "codex";
  if (name === "cursor-agent" || name === "cursor") return "cursor";
  if (name === "opencode") return "opencode";
  return null;
}

/** True when a file's text names cpilot's MCP server entry. */
export function mentionsCpilotServer(path: string): boolean {
  try {
    return /["'[\s.]cpilot["'\]\s=:]/.test(readFileSync(path, "utf8"));
  } catch {
    return false;
  }
}
