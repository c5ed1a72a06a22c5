/** The shared body of `cpilot install|uninstall <agent>` for agents with one hook file. */
import { relative } from "node:path";
import type { InstallReport, InstallRequest } from "../contract.ts";
import type { AgentInstaller } from "./agent-installer.ts";
import { type ProjectReach, portableCpilot, portableProblem } from "./portable-command.ts";

export function reportInstall(
  reach: ProjectReach,
  installer: AgentInstaller,
  action: "install" | "uninstall",
  request: InstallRequest,
): InstallReport {
  const user = request.scope === "user";
  const result = installer(action, {
    root: request.root,
    scope: user ? "user" : "project",
    home: request.home,
    config: request.config,
  });
  const shown = user ? result.path : relative(request.cwd, result.path) || result.path;
  const [first, ...rest] = result.lines;
  const lines = [`cpilot: ${shown}: ${first ?? ""}`, ...rest];
  if (action === "install" && !user) {
    const problem = portableProblem(portableCpilot(reach, request.root), request.root);
    if (problem !== null)
      lines.push(
        `  warning: ${problem}: the hooks fail on this machine until it is (\`cpilot doctor\` checks); --user installs this machine's binary path instead`,
      );
  }
  return { path: result.path, changed: result.changed, lines };
}
