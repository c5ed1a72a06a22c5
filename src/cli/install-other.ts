/** `cpilot install|uninstall gemini|cursor|codex|opencode`: one agent's hook file, merged. */
import { homedir } from "node:os";
import { dirname, relative } from "node:path";
import type { AgentInstaller } from "../agents/_shared/agent-installer.ts";
import { portableCpilot, portableProblem } from "../agents/_shared/portable-command.ts";
import { findConfig } from "../config/find.ts";
import { say } from "../ui/style.ts";
import { loadConfigQuietly, NO_CONFIG_YET } from "./_common.ts";

/** Run one agent's installer for the project (or the user's home with --user) and say what it did. */
export async function installOther(
  action: "install" | "uninstall",
  installer: AgentInstaller,
  options: { cwd: string; user: boolean; configFlag: string | undefined; agent: string },
): Promise<number> {
  const configPath = options.configFlag ?? findConfig(options.cwd);
  const root = configPath === null ? options.cwd : dirname(configPath);
  const config =
    action === "install" && configPath !== null ? await loadConfigQuietly(configPath) : null;
  const result = installer(action, {
    root,
    scope: options.user ? "user" : "project",
    home: process.env.HOME || homedir(),
    config,
  });
  const shown = options.user ? result.path : relative(options.cwd, result.path) || result.path;
  const [first, ...rest] = result.lines;
  say(`cpilot: ${shown}: ${first ?? ""}`);
  for (const line of rest) say(line);
  if (action === "install" && !options.user) {
    const problem = portableProblem(portableCpilot(options.agent, root), root);
    if (problem !== null)
      say(
        `  warning: ${problem}: the hooks fail on this machine until it is (\`cpilot doctor\` checks); --user installs this machine's binary path instead`,
      );
  }
  if (action === "install" && configPath === null) say(NO_CONFIG_YET);
  return 0;
}
