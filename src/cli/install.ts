/** `cpilot install claude` / `cpilot uninstall claude`: cpilot's hooks in Claude Code's settings. */
import { homedir } from "node:os";
import { dirname, join, relative } from "node:path";
import type { AgentInstaller } from "../agents/_shared/agent-installer.ts";
import { portableCpilot, portableProblem } from "../agents/_shared/portable-command.ts";
import { detectClaudeVersion, supportsBatchEvent } from "../agents/claude/detect-version.ts";
import { cpilotHooks, hookCommandLine, hookTimeoutSeconds } from "../agents/claude/hooks-config.ts";
import {
  addCpilotHooks,
  readSettings,
  removeCpilotHooks,
  writeSettings,
} from "../agents/claude/settings-file.ts";
import { findConfig } from "../config/find.ts";
import { say } from "../ui/style.ts";
import { didYouMean } from "../util/edit-distance.ts";
import { CpilotError } from "../util/errors.ts";
import { loadConfigQuietly, NO_CONFIG_YET, parseFlags } from "./_common.ts";

const USAGE =
  "cpilot install|uninstall claude|gemini|cursor|codex|opencode [--project | --local | --user] [--config PATH] | cpilot install|uninstall git";

/** The agents besides Claude Code, each with its own installer. */
const OTHER_AGENTS: Record<string, () => Promise<AgentInstaller>> = {
  gemini: async () => (await import("../agents/gemini/install.ts")).geminiInstaller,
  cursor: async () => (await import("../agents/cursor/install.ts")).cursorInstaller,
  codex: async () => (await import("../agents/codex/install.ts")).codexInstaller,
  opencode: async () => (await import("../agents/opencode/install.ts")).opencodeInstaller,
};

type Scope = "user" | "project" | "local";

/** Where a scope's settings live. */
export function settingsPath(scope: Scope, projectRoot: string, env = process.env): string {
  if (scope === "user")
    return join(env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), ".claude"), "settings.json");
  return join(projectRoot, ".claude", scope === "local" ? "settings.local.json" : "settings.json");
}

/**
 * Merge cpilot's hooks into (or take them out of) one Claude Code settings file, keeping
 * every other hook and setting. Idempotent: a second install writes nothing.
 * Default scope: the project (`.claude/settings.json`, shared with the team).
 */
export async function installCommand(
  action: "install" | "uninstall",
  args: string[],
  ctx: { cwd: string },
): Promise<number> {
  if (args.includes("--mcp"))
    return (await import("./mcp.ts")).mcpInstallCommand(action, args, ctx);
  if (args[0] === "git")
    return (await import("./install-git.ts")).installGitCommand(action, args, ctx.cwd);
  const { values, positionals } = parseFlags(
    args,
    {
      user: { type: "boolean" },
      project: { type: "boolean" },
      local: { type: "boolean" },
      config: { type: "string" },
    },
    USAGE,
  );
  const agent = positionals[0];
  const other = agent === undefined ? undefined : OTHER_AGENTS[agent];
  if (other !== undefined && positionals.length === 1) {
    if (values.local === true)
      throw new CpilotError(
        `Cannot use --local with ${agent}: only Claude Code has a local settings file`,
        {
          hint: `usage: ${USAGE}`,
        },
      );
    const { installOther } = await import("./install-other.ts");
    return installOther(action, await other(), {
      cwd: ctx.cwd,
      user: values.user === true,
      configFlag: values.config,
      agent: agent ?? "",
    });
  }
  if (agent !== "claude" || positionals.length > 1) {
    throw new CpilotError(
      `Cannot ${action} hooks for "${positionals.join(" ")}": cpilot knows claude, ${Object.keys(OTHER_AGENTS).join(", ")} and git`,
      {
        hint: [
          didYouMean(positionals[0] ?? "", ["claude", ...Object.keys(OTHER_AGENTS), "git"]),
          `usage: ${USAGE}`,
        ]
          .filter(Boolean)
          .join("\n"),
      },
    );
  }
  const scopes = (["user", "project", "local"] as const).filter((s) => values[s] === true);
  if (scopes.length > 1) {
    throw new CpilotError("Cannot combine --user, --project and --local: pick one", {
      hint: `usage: ${USAGE}`,
    });
  }
  const configPath = values.config ?? findConfig(ctx.cwd);
  const root = configPath === null ? ctx.cwd : dirname(configPath);
  // The shared file gets a command every teammate can run; when it cannot run here, hooks
  // go to this machine's local file with this binary's path, unless --project was asked for.
  const portable = `${portableCpilot("claude", root)} hook claude`;
  const portableFails = portableProblem(portable, root);
  const scope: Scope =
    scopes[0] ?? (action === "install" && portableFails !== null ? "local" : "project");
  const command = scope === "project" ? portable : hookCommandLine();
  const path = settingsPath(scope, root);
  const shown = scope === "user" ? path : relative(ctx.cwd, path) || path;
  const before = readSettings(path);

  if (action === "uninstall") {
    const { settings, removed } = removeCpilotHooks(before);
    if (removed === 0) {
      say(`cpilot: no cpilot hooks in ${shown}: nothing changed`);
      return 0;
    }
    writeSettings(path, settings);
    say(`cpilot: removed ${removed} cpilot hook${removed === 1 ? "" : "s"} from ${shown}`);
    return 0;
  }

  const config = configPath === null ? null : await loadConfigQuietly(configPath);
  const version = detectClaudeVersion(process.env.CPILOT_CLAUDE_BIN || "claude");
  const ours = cpilotHooks({
    command,
    timeout: hookTimeoutSeconds(config),
    batchEvent: supportsBatchEvent(version),
  });
  const after = addCpilotHooks(before, ours);
  if (JSON.stringify(after) === JSON.stringify(before)) {
    say(`cpilot: hooks already in ${shown}: nothing changed`);
    return 0;
  }
  writeSettings(path, after);
  say(`cpilot: added hooks for ${Object.keys(ours).join(", ")} to ${shown}`);
  say(`  command: ${command} (timeout ${hookTimeoutSeconds(config)} s)`);
  if (portableFails !== null && scope === "project")
    say(
      `  warning: ${portableFails}: the hooks fail on this machine until it is (\`cpilot doctor\` checks)`,
    );
  if (portableFails !== null && scopes.length === 0)
    say(
      `  ${portableFails}, so the hooks went to ${shown} (this machine only, with this binary's path); to share them in .claude/settings.json, put cpilot on PATH or add it as a devDependency, then \`cpilot install claude --project\``,
    );
  if (version === null)
    say(
      "  Claude Code's version is unknown (`claude --version` failed): PostToolBatch registered, as for 2.1+",
    );
  else if (!supportsBatchEvent(version))
    say(
      `  Claude Code ${version.join(".")} has no PostToolBatch: batch callbacks run after every edit`,
    );
  if (configPath === null) say(NO_CONFIG_YET);
  return 0;
}
