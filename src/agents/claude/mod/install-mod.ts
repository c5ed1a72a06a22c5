/**
 * `cpilot install claude --mod`. Claude Code loads no plugin from project settings alone,
 * so the plugin goes to the person's Claude Code folder and its path into
 * `CLAUDE_CODE_PLUGIN_DIRS` in their user settings' `env`.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { JsonObject } from "../../../util/json-file.ts";
import type { InstallRequest } from "../../contract.ts";
import { detectClaudeVersion } from "../detect-version.ts";
import { claudeConfigDir, compareVersions } from "../protocol.ts";
import { readSettings, writeSettings } from "../settings-file.ts";
import { MOD_NAME, writeModPlugin } from "./plugin.ts";

/** Joined by the path delimiter. */
export const PLUGIN_DIRS_VAR = "CLAUDE_CODE_PLUGIN_DIRS";

/** Outside any project. */
export function installedModDir(home: string, env: NodeJS.ProcessEnv): string {
  return join(claudeConfigDir(home, env), MOD_NAME);
}

export function pluginDirs(settings: JsonObject): { env: JsonObject; dirs: string[] } {
  const env = settings.env;
  const block: JsonObject =
    typeof env === "object" && env !== null && !Array.isArray(env)
      ? { ...(env as JsonObject) }
      : {};
  const value = block[PLUGIN_DIRS_VAR];
  const dirs =
    typeof value === "string" ? value.split(delimiter).filter((d) => d.trim() !== "") : [];
  return { env: block, dirs };
}

/** Never remove a folder someone else put there. */
export function holdsOurPlugin(dir: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, ".claude-plugin", "plugin.json"), "utf8"));
    return manifest?.name === MOD_NAME;
  } catch {
    return false;
  }
}

export function installMod(action: "install" | "uninstall", request: InstallRequest): string[] {
  const dir = installedModDir(request.home, request.env);
  const path = join(claudeConfigDir(request.home, request.env), "settings.json");
  const settings = readSettings(path);
  const { env, dirs } = pluginDirs(settings);
  if (action === "install") {
    const version = detectClaudeVersion(request.env.CPILOT_CLAUDE_BIN || "claude");
    if (version !== null && compareVersions(version, [2, 1, 287]) < 0)
      return [
        `cpilot: Claude Code ${version.join(".")} loads no mods (2.1.287 and later do): the format-on-save mod was not installed`,
      ];
    if (existsSync(dir) && !holdsOurPlugin(dir))
      return [
        `cpilot: ${dir} holds something else: the format-on-save mod was not installed there`,
      ];
    writeModPlugin(dir);
    if (!dirs.includes(dir)) {
      env[PLUGIN_DIRS_VAR] = [...dirs, dir].join(delimiter);
      writeSettings(path, { ...settings, env });
    }
    return [
      `cpilot: format-on-save mod in ${dir}, loaded by every Claude Code session through ${PLUGIN_DIRS_VAR} in ${path}`,
    ];
  }
  const kept = dirs.filter((d) => d !== dir);
  const lines: string[] = [];
  if (kept.length !== dirs.length) {
    if (kept.length > 0) env[PLUGIN_DIRS_VAR] = kept.join(delimiter);
    else delete env[PLUGIN_DIRS_VAR];
    const { env: _old, ...rest } = settings;
    writeSettings(path, Object.keys(env).length > 0 ? { ...rest, env } : rest);
    lines.push(`cpilot: removed the format-on-save mod from ${PLUGIN_DIRS_VAR} in ${path}`);
  }
  if (holdsOurPlugin(dir)) {
    rmSync(dir, { recursive: true, force: true });
    lines.push(`cpilot: removed ${dir}`);
  }
  return lines.length > 0 ? lines : ["cpilot: no format-on-save mod installed: nothing changed"];
}
