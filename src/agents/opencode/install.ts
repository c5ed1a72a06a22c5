import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { isCompiledBinary, selfArgv } from "../../platform/self-command.ts";
import { writeFileAtomic } from "../../util/atomic-write.ts";
import { CpilotError } from "../../util/errors.ts";
import type { AgentInstaller } from "../kit/agent-installer.ts";
import { type ProjectReach, portableCpilot } from "../kit/portable-command.ts";
import { opencodePluginSource, PLUGIN_MARKER, pluginSeal } from "./plugin-source.ts";

/** The plugin file starts cpilot: a "./" path from there finds the project's copy. */
export const PLUGIN_REACH: ProjectReach = { fromProjectFile: true };

/** `~/.config/opencode/plugins/cpilot.ts` for --user. */
export function opencodePluginPath(
  scope: "project" | "user",
  root: string,
  home: string,
  env = process.env,
): string {
  if (scope === "user")
    return join(env.XDG_CONFIG_HOME || join(home, ".config"), "opencode", "plugins", "cpilot.ts");
  return join(root, ".opencode", "plugins", "cpilot.ts");
}

/** Project plugin: the npm shim when a dependency, else `cpilot` from PATH; user plugin: this binary. */
export function pluginArgv(ctx: { scope: "project" | "user"; root: string }): string[] {
  if (ctx.scope === "project") return portableCpilot(PLUGIN_REACH, ctx.root).split(" ");
  return isCompiledBinary() ? selfArgv() : ["cpilot"];
}

export function isCpilotPlugin(path: string): boolean {
  try {
    return readFileSync(path, "utf8").startsWith(PLUGIN_MARKER);
  } catch {
    return false;
  }
}

/** A file of that name cpilot did not write, or that was edited since, is left alone. */
export const opencodeInstaller: AgentInstaller = (action, ctx) => {
  const path = opencodePluginPath(ctx.scope, ctx.root, ctx.home);
  const exists = existsSync(path);
  if (exists && !isCpilotPlugin(path)) {
    throw new CpilotError(`Cannot ${action} "${path}": it exists and cpilot did not write it`, {
      hint: "rename or remove it first; cpilot only touches the plugin it generated",
    });
  }
  if (exists && pluginSeal(readFileSync(path, "utf8")) === "edited") {
    throw new CpilotError(`Cannot ${action} "${path}": it was edited since cpilot wrote it`, {
      hint: "move your changes to a plugin of your own and remove this file; cpilot does not replace or remove what you wrote",
    });
  }
  if (action === "uninstall") {
    if (exists) rmSync(path);
    return {
      path,
      changed: exists,
      lines: [exists ? "removed the cpilot plugin" : "no cpilot plugin: nothing changed"],
    };
  }
  const text = opencodePluginSource(pluginArgv(ctx));
  if (exists && readFileSync(path, "utf8") === text)
    return { path, changed: false, lines: ["plugin already there: nothing changed"] };
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, text);
  return {
    path,
    changed: true,
    lines: [
      "wrote the plugin: tool.execute.before runs the write gate, tool.execute.after the callbacks",
      `  cpilot: ${pluginArgv(ctx).join(" ")}`,
    ],
  };
};
