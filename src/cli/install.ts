import { homedir } from "node:os";
import { dirname } from "node:path";
import { AGENTS, agentNamed } from "../agents/all-agents.ts";
import type { InstallScope } from "../agents/contract.ts";
import { AGENT_NAMES } from "../agents/registry.ts";
import { findConfig } from "../config/find.ts";
import { say } from "../ui/style.ts";
import { didYouMean } from "../util/edit-distance.ts";
import { CpilotError } from "../util/errors.ts";
import { loadConfigQuietly, NO_CONFIG_YET, parseFlags } from "./_common.ts";

const usage = (): string =>
  `cpilot install|uninstall ${AGENT_NAMES.join("|")} [--project | --local | --user] [--trust-project] [--mod] [--config PATH] | cpilot install|uninstall git`;

/** Keeps everything not cpilot's; `--mcp` goes to the MCP entry instead, `git` to the git hooks. */
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
      "trust-project": { type: "boolean" },
      mod: { type: "boolean" },
      config: { type: "string" },
    },
    usage(),
  );
  const agent = positionals.length === 1 ? agentNamed(positionals[0] ?? "") : undefined;
  if (agent === undefined) {
    const known = AGENT_NAMES;
    throw new CpilotError(
      `Cannot ${action} hooks for "${positionals.join(" ")}": cpilot knows ${known.join(", ")} and git`,
      {
        hint: [didYouMean(positionals[0] ?? "", [...known, "git"]), `usage: ${usage()}`]
          .filter(Boolean)
          .join("\n"),
      },
    );
  }
  const scopes = (["user", "project", "local"] as const).filter((s) => values[s] === true);
  const scope: InstallScope | null = scopes[0] ?? null;
  if (scope !== null && !agent.installScopes.includes(scope)) {
    const have = AGENTS.filter((a) => a.installScopes.includes(scope)).map((a) => a.displayName);
    throw new CpilotError(
      `Cannot use --${scope} with ${agent.name}: only ${have.join(", ")} has a ${scope} settings file`,
      { hint: `usage: ${usage()}` },
    );
  }
  if (scopes.length > 1) {
    throw new CpilotError("Cannot combine --user, --project and --local: pick one", {
      hint: `usage: ${usage()}`,
    });
  }
  if (values.mod === true && agent.name !== "claude")
    throw new CpilotError(
      `Cannot use --mod with ${agent.name}: only Claude Code loads cpilot's mod`,
      {
        hint: `usage: ${usage()}`,
      },
    );
  const configPath = values.config ?? findConfig(ctx.cwd);
  const root = configPath === null ? ctx.cwd : dirname(configPath);
  const config =
    action === "install" && configPath !== null ? await loadConfigQuietly(configPath) : null;
  const report = await agent.install(action, {
    cwd: ctx.cwd,
    root,
    scope,
    home: process.env.HOME || homedir(),
    env: process.env,
    config,
    ...(values["trust-project"] === true ? { trustProject: true } : {}),
    ...(values.mod === true ? { mod: true } : {}),
  });
  for (const line of report.lines) say(line);
  if (action === "install" && configPath === null) say(NO_CONFIG_YET);
  return 0;
}
