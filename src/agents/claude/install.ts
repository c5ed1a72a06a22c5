/** `cpilot install claude` / `cpilot uninstall claude`: cpilot's hooks in Claude Code's settings. */
import { join, relative } from "node:path";
import { writeJsonObjectOrRemove } from "../../util/json-file.ts";
import type { InstallReport, InstallRequest, InstallScope } from "../contract.ts";
import { portableCpilot, portableProblem } from "../kit/portable-command.ts";
import { detectClaudeVersion, supportsBatchEvent } from "./detect-version.ts";
import {
  cpilotHooks,
  hookCommandLine,
  hookTimeoutSeconds,
  rewakeTimeoutSeconds,
} from "./hooks-config.ts";
import { excludeLocalSettings, unexcludeLocalSettings } from "./local-exclude.ts";
import { claudeProtocol } from "./protocol.ts";
import { addCpilotHooks, readSettings, removeCpilotHooks, writeSettings } from "./settings-file.ts";

export function settingsPath(
  scope: InstallScope,
  projectRoot: string,
  home: string,
  env: NodeJS.ProcessEnv,
): string {
  if (scope === "user")
    return join(env.CLAUDE_CONFIG_DIR || join(home, ".claude"), "settings.json");
  return join(projectRoot, ".claude", scope === "local" ? "settings.local.json" : "settings.json");
}

/** Keeps every other hook and setting; idempotent. Default scope: the project's shared `.claude/settings.json`. */
export async function installClaude(
  action: "install" | "uninstall",
  request: InstallRequest,
): Promise<InstallReport> {
  const report = installHooks(action, request);
  if (request.mod !== true) return report;
  const { installMod } = await import("./mod/install-mod.ts");
  const lines = installMod(action, request);
  return {
    ...report,
    changed: report.changed || !lines[0]?.includes("nothing changed"),
    lines: [...report.lines, ...lines],
  };
}

function installHooks(action: "install" | "uninstall", request: InstallRequest): InstallReport {
  const { root, env } = request;
  // The shared file gets a command every teammate can run; when it cannot run here, hooks
  // go to this machine's local file with this binary's path, unless --project was asked for.
  const portable = `${portableCpilot(claudeProtocol, root)} hook claude`;
  const portableFails = portableProblem(portable, root, env);
  const scope: InstallScope =
    request.scope ?? (action === "install" && portableFails !== null ? "local" : "project");
  const command = scope === "project" ? portable : hookCommandLine();
  const path = settingsPath(scope, root, request.home, env);
  const shown = scope === "user" ? path : relative(request.cwd, path) || path;
  const before = readSettings(path);

  if (action === "uninstall") {
    const { settings, removed } = removeCpilotHooks(before);
    if (removed === 0)
      return {
        path,
        changed: false,
        lines: [`cpilot: no cpilot hooks in ${shown}: nothing changed`],
      };
    // Before the file and maybe its folder go: git is asked from that folder.
    if (scope === "local") unexcludeLocalSettings(path);
    if (scope === "user") writeSettings(path, settings);
    else writeJsonObjectOrRemove(path, settings);
    return {
      path,
      changed: true,
      lines: [`cpilot: removed ${removed} cpilot hook${removed === 1 ? "" : "s"} from ${shown}`],
    };
  }

  const { config } = request;
  const version = detectClaudeVersion(env.CPILOT_CLAUDE_BIN || "claude");
  const ours = cpilotHooks({
    command,
    timeout: hookTimeoutSeconds(config),
    batchEvent: supportsBatchEvent(version),
    failClosed: true,
    rewakeTimeout: rewakeTimeoutSeconds(config),
  });
  const after = addCpilotHooks(before, ours);
  if (JSON.stringify(after) === JSON.stringify(before))
    return { path, changed: false, lines: [`cpilot: hooks already in ${shown}: nothing changed`] };
  writeSettings(path, after);
  const excluded = scope === "local" ? excludeLocalSettings(path) : null;
  const lines = [
    `cpilot: added hooks for ${Object.keys(ours).join(", ")} to ${shown}`,
    `  command: ${command} (timeout ${hookTimeoutSeconds(config)} s)`,
    "  the write gate fails closed: where cpilot is missing or fails, PreToolUse refuses the edit",
  ];
  if (excluded !== null) lines.push(excluded);
  if (portableFails !== null && scope === "project")
    lines.push(
      `  warning: ${portableFails}: the hooks fail on this machine until it is (\`cpilot doctor\` checks)`,
    );
  if (portableFails !== null && request.scope === null)
    lines.push(
      `  ${portableFails}, so the hooks went to ${shown} (this machine only, with this binary's path); to share them in .claude/settings.json, put cpilot on PATH or add it as a devDependency, then \`cpilot install claude --project\``,
    );
  if (version === null)
    lines.push(
      "  Claude Code's version is unknown (`claude --version` failed): PostToolBatch registered, as for 2.1+",
    );
  else if (!supportsBatchEvent(version))
    lines.push(
      `  Claude Code ${version.join(".")} has no PostToolBatch: batch callbacks run after every edit`,
    );
  return { path, changed: true, lines };
}
