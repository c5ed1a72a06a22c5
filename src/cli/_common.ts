import { dirname } from "node:path";
import type * as NodeUtil from "node:util";
import type { ResolvedConfig } from "../config/resolve.ts";
import { writeErr } from "../platform/stdio.ts";
import { closestNames, didYouMean } from "../util/edit-distance.ts";
import { CpilotError, HelpRequest } from "../util/errors.ts";
import { parseArgsStrict } from "./parse-args.ts";

const FLAG_HELP: Record<string, string> = {
  json: "print JSON on stdout (people's text stays on stderr)",
  config: "use this config file instead of the one found walking up from here",
  "dry-run": "show what would happen; change nothing",
  staged: "the staged content (pre-commit), other work set aside and restored",
  changed: "the working tree against REF (default HEAD), untracked files too; the default",
  all: "every file git tracks (outside git: every file not ignored)",
  only: "run only this callback (repeat for more)",
  skip: "leave this callback out (repeat for more)",
  limit: "show the last N",
  session: "the agent session id",
  user: "the user's own settings (this machine only; keeps this binary's path)",
  project: "the project's shared settings (the default; a command every teammate can run)",
  local: "Claude Code's .claude/settings.local.json (this machine only, not committed)",
  mcp: "wire cpilot in as an MCP server instead of hooks",
  "trust-project":
    "also trust the project in the agent's own store, where it runs no project hook before (Codex, Copilot CLI)",
  mod: "Claude Code: also the format-on-save mod, loaded by your own sessions (user settings)",
  prove:
    "run AGENT's own CLI headless on a scripted model cpilot serves on 127.0.0.1 (else play its hook calls): do failures, rewrites and refusals reach the model?",
  "agent-bin": "the agent CLI --prove runs (default: the agent's program on PATH)",
  command: "the command the agent starts the server with",
  root: "the project root (default: the config's folder)",
  "batch-window": "milliseconds to gather edits into one batch (default 75)",
  "fail-on-change": "a callback that rewrites a file fails the check (the default with CI set)",
  "new-only": "fail only on diagnostics new since HEAD (a project with old errors adopting cpilot)",
  restore: "put back what a killed `check --staged` set aside",
};

export function flagHelp(
  usage: string,
  options: NonNullable<NodeUtil.ParseArgsConfig["options"]>,
  help: Record<string, string> = {},
): string {
  const rows = Object.entries(options).map(([name, o]) => {
    // The placeholder the usage line gives the flag's value (`--only NAME`), else VALUE.
    const flags = `--${name}${o.short ? `|-${o.short}` : ""}`;
    const placeholder = new RegExp(`(?:${flags})[ =]\\[?([A-Z][A-Z_]*)`).exec(usage)?.[1];
    const value = o.type === "string" ? ` ${placeholder ?? "VALUE"}` : "";
    return [
      `--${name}${o.short ? `, -${o.short}` : ""}${value}`,
      help[name] ?? FLAG_HELP[name] ?? "",
    ];
  });
  rows.push(["--help, -h", "this help"]);
  const width = Math.max(...rows.map(([flag]) => flag!.length)) + 2;
  return [
    `usage: ${usage}`,
    "",
    ...rows.map(([flag, text]) => `  ${flag!.padEnd(width)}${text}`),
  ].join("\n");
}

/** parseArgs with strict checking, turning its errors into usage errors (exit 2). */
export function parseFlags<T extends NonNullable<NodeUtil.ParseArgsConfig["options"]>>(
  args: string[],
  options: T,
  usage: string,
  help: Record<string, string> = {},
) {
  const end = args.indexOf("--");
  const own = end === -1 ? args : args.slice(0, end);
  // A command with a `help` option of its own prints its longer help itself.
  if ((own.includes("--help") || own.includes("-h")) && !("help" in options))
    throw new HelpRequest(flagHelp(usage, options, help));
  try {
    return parseArgsStrict(args, options) as ReturnType<
      typeof NodeUtil.parseArgs<{
        args: string[];
        options: T;
        allowPositionals: true;
        strict: true;
      }>
    >;
  } catch (err) {
    const message = (err as Error).message;
    // parseArgs says "Unknown option '--fro'": offer the flags this command has.
    const unknown = /Unknown option '(--?[^']+)'/.exec(message)?.[1];
    const flags = Object.entries(options).flatMap(([name, o]) => [
      `--${name}`,
      ...(o.short ? [`-${o.short}`] : []),
    ]);
    const near = unknown === undefined ? "" : didYouMean(unknown, flags);
    throw new CpilotError(`Cannot parse arguments: ${message.split(".")[0]}`, {
      hint: `${near ? `${near}\n` : ""}usage: ${usage}`,
    });
  }
}

export function assertKnownNames(
  names: readonly string[],
  known: readonly string[],
  flag: string,
): void {
  for (const name of names) {
    if (known.includes(name)) continue;
    const near = closestNames(name, known);
    throw new CpilotError(`Cannot ${flag} "${name}": no callback has that name`, {
      hint:
        near.length > 0
          ? `did you mean ${near.map((n) => `"${n}"`).join(" or ")}?`
          : `callbacks: ${known.join(", ") || "(none)"}`,
    });
  }
}

/** null when there is none or it does not load: install still works. */
export async function loadConfigQuietly(path: string): Promise<ResolvedConfig | null> {
  const { ConfigDidNotLoad, loadCommandConfig } = await import("../config/supervised-load.ts");
  try {
    return await loadCommandConfig(path, dirname(path));
  } catch (err) {
    // One that hangs or exits is worth a word (it cost the wait); Ctrl-C ends the command.
    if (err instanceof ConfigDidNotLoad) {
      if (err.exitCode === 130) throw err;
      writeErr(`cpilot: ${err.message}\n(installing anyway)\n`);
    }
    return null;
  }
}

/** Said after an install when the project has no config yet. */
export const NO_CONFIG_YET =
  "  no callbacks.config.ts here yet: `cpilot init` writes one; until then the hooks do nothing";
