/**
 * `cpilot doctor`: for each agent found here, is cpilot wired in (hooks, MCP)? Does the
 * project's config load? Does every callback's command exist? A table for people, or
 * `--json`; exit 0 when all is well, 1 when a problem was found.
 */
import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, isAbsolute, join } from "node:path";
import { isObject } from "../agents/_shared/json-file.ts";
import { findConfig } from "../config/find.ts";
import type { ResolvedCallback } from "../config/resolve.ts";
import { type McpAgent, mcpConfigPath, SERVER_NAME } from "../mcp/install/index.ts";
import { CpilotError } from "../util/errors.ts";
import { parseFlags } from "./_common.ts";
import { AGENTS, type AgentName, hookPlaces } from "./agent-wiring.ts";

const USAGE = "cpilot doctor [--json] [--config PATH]";

/** What the doctor found about one agent. */
export interface AgentCheck {
  readonly agent: AgentName;
  /** Why it counts as found: its folder in the project, in the home folder, its CLI on PATH. */
  readonly foundBy: string[];
  readonly hooks: { readonly wired: boolean; readonly path: string | null };
  readonly mcp: { readonly wired: boolean; readonly path: string | null } | null;
  /** A problem only when the project itself uses the agent (its folder is in the project). */
  readonly problem: string | null;
}

export interface CallbackCheck {
  readonly name: string;
  /** The program it starts; null for a TypeScript function. */
  readonly command: string | null;
  readonly status: "ok" | "missing" | "n/a";
  readonly detail: string;
}

export interface DoctorReport {
  readonly root: string;
  readonly config: {
    readonly path: string | null;
    readonly ok: boolean;
    readonly error: string | null;
  };
  readonly agents: AgentCheck[];
  readonly callbacks: CallbackCheck[];
  readonly problems: number;
}

const CLI_NAMES: Record<AgentName, string[]> = {
  claude: ["claude"],
  gemini: ["gemini"],
  cursor: ["cursor-agent", "cursor"],
  codex: ["codex"],
  opencode: ["opencode"],
};
const DIRS: Record<AgentName, string> = {
  claude: ".claude",
  gemini: ".gemini",
  cursor: ".cursor",
  codex: ".codex",
  opencode: ".opencode",
};

/** Where `name` is on PATH, or null. */
export function onPath(name: string, env = process.env): string | null {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const full = join(dir, name);
    if (isExecutable(full)) return full;
  }
  return null;
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Shell words that are not programs: builtins and keywords a `run` string may start with. */
const SHELL_WORDS = new Set(
  "! [ [[ { ( . : alias bg break builtin case cd command continue declare echo eval exec exit export false fg for function getopts hash if jobs kill let local printf pwd read readonly return set shift source test times trap true type typeset ulimit umask unalias unset until wait while".split(
    " ",
  ),
);

/** The program a shell string starts: its first word after `VAR=value` assignments. */
export function firstProgram(run: string): string | null {
  const words = run.trim().match(/(?:[^\s"'\\]+|"[^"]*"|'[^']*'|\\.)+/g) ?? [];
  for (const word of words) {
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) continue;
    return word.replace(/^(["'])(.*)\1$/, "$2");
  }
  return null;
}

function checkCallback(cb: ResolvedCallback, env: NodeJS.ProcessEnv): CallbackCheck {
  if (typeof cb.run === "function")
    return { name: cb.name, command: null, status: "n/a", detail: "TypeScript function" };
  const program = typeof cb.run === "string" ? firstProgram(cb.run) : (cb.run[0] ?? null);
  if (program === null || program === "")
    return { name: cb.name, command: null, status: "missing", detail: "empty command" };
  if (typeof cb.run === "string" && (SHELL_WORDS.has(program) || program.includes("$"))) {
    return { name: cb.name, command: program, status: "ok", detail: "shell builtin or expansion" };
  }
  if (program.includes("/")) {
    const full = isAbsolute(program) ? program : join(cb.cwd, program);
    return isExecutable(full)
      ? { name: cb.name, command: program, status: "ok", detail: full }
      : {
          name: cb.name,
          command: program,
          status: "missing",
          detail: `${full} is not an executable file`,
        };
  }
  const path = onPath(program, { ...env, PATH: cb.env.PATH ?? env.PATH ?? "" });
  return path !== null
    ? { name: cb.name, command: program, status: "ok", detail: path }
    : { name: cb.name, command: program, status: "missing", detail: `"${program}" is not on PATH` };
}

function mcpWired(
  agent: AgentName,
  root: string,
  env: NodeJS.ProcessEnv,
): { wired: boolean; path: string | null } | null {
  if (agent === "opencode") return null;
  const path = mcpConfigPath(agent as McpAgent, { root, env });
  if (!existsSync(path)) return { wired: false, path: null };
  let text = "";
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { wired: false, path };
  }
  if (agent === "codex") {
    return { wired: new RegExp(`^\\s*\\[mcp_servers\\.${SERVER_NAME}\\]`, "m").test(text), path };
  }
  try {
    const json = JSON.parse(text) as unknown;
    const servers = isObject(json) && isObject(json.mcpServers) ? json.mcpServers : {};
    return { wired: SERVER_NAME in servers, path };
  } catch {
    return { wired: false, path };
  }
}

function checkAgent(
  agent: AgentName,
  root: string,
  home: string,
  env: NodeJS.ProcessEnv,
): AgentCheck | null {
  const foundBy: string[] = [];
  const inProject = existsSync(join(root, DIRS[agent]));
  if (inProject) foundBy.push(`${DIRS[agent]}/ in the project`);
  const homeDir =
    agent === "opencode" ? join(home, ".config", "opencode") : join(home, DIRS[agent]);
  if (existsSync(homeDir)) foundBy.push(`${homeDir}`);
  const cli = CLI_NAMES[agent].map((n) => onPath(n, env)).find((p) => p !== null);
  if (cli) foundBy.push(`${cli}`);
  if (foundBy.length === 0) return null;
  const wiredPlace = hookPlaces(agent, root, home, env).find((p) => p.wired);
  const hooks = { wired: wiredPlace !== undefined, path: wiredPlace?.path ?? null };
  const mcp = mcpWired(agent, root, env);
  const wired = hooks.wired || mcp?.wired === true;
  return {
    agent,
    foundBy,
    hooks,
    mcp,
    problem:
      !wired && inProject
        ? `cpilot is not wired into ${agent}: run \`cpilot install ${agent}\``
        : null,
  };
}

/** Everything the doctor looks at, as data. */
export async function diagnose(
  cwd: string,
  options: { config?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<DoctorReport> {
  const env = options.env ?? process.env;
  const home = env.HOME || homedir();
  const configPath = options.config ?? findConfig(cwd);
  const root = configPath === null ? cwd : dirname(configPath);
  let configError: string | null =
    configPath === null
      ? "no callbacks.config.ts (or .js/.json/.yaml) here or above: `cpilot init` writes one"
      : null;
  let callbacks: CallbackCheck[] = [];
  if (configPath !== null) {
    try {
      const { loadConfigFile } = await import("../config/load.ts");
      const config = await loadConfigFile(configPath);
      callbacks = config.callbacks.map((cb) => checkCallback(cb, env));
    } catch (err) {
      configError =
        err instanceof CpilotError
          ? `${err.message}${err.hint ? `\nhint: ${err.hint}` : ""}`
          : String(err);
    }
  }
  const agents = AGENTS.map((a) => checkAgent(a, root, home, env)).filter(
    (a): a is AgentCheck => a !== null,
  );
  const problems =
    (configError === null ? 0 : 1) +
    agents.filter((a) => a.problem !== null).length +
    callbacks.filter((c) => c.status === "missing").length;
  return {
    root,
    config: { path: configPath, ok: configError === null, error: configError },
    agents,
    callbacks,
    problems,
  };
}

/** The report as a table for people. */
export function renderDoctor(report: DoctorReport): string {
  const lines: string[] = [`cpilot doctor: ${report.root}`, ""];
  const mark = (ok: boolean | null) => (ok === null ? "-" : ok ? "✓" : "✗");
  lines.push("config");
  if (report.config.ok) lines.push(`  ✓ ${report.config.path} loads`);
  else lines.push(...`✗ ${report.config.error}`.split("\n").map((l) => `  ${l}`));
  lines.push("", "agents           hooks  mcp  found by");
  if (report.agents.length === 0)
    lines.push("  (none found: no agent folders here or in your home, no agent CLI on PATH)");
  for (const a of report.agents) {
    lines.push(
      `  ${a.agent.padEnd(15)}${mark(a.hooks.wired).padEnd(7)}${mark(a.mcp?.wired ?? null).padEnd(5)}${a.foundBy.join(", ")}`,
    );
    if (a.problem) lines.push(`    ✗ ${a.problem}`);
  }
  if (report.callbacks.length > 0) {
    lines.push("", "callbacks");
    const width = Math.max(...report.callbacks.map((c) => c.name.length)) + 2;
    for (const c of report.callbacks) {
      const sign = c.status === "ok" ? "✓" : c.status === "missing" ? "✗" : "-";
      lines.push(
        `  ${sign} ${c.name.padEnd(width)}${c.command ?? ""}${c.command ? "  " : ""}(${c.detail})`,
      );
    }
  }
  lines.push(
    "",
    report.problems === 0
      ? "all good"
      : `${report.problems} problem${report.problems === 1 ? "" : "s"} found`,
  );
  return lines.join("\n");
}

export async function doctorCommand(args: string[], ctx: { cwd: string }): Promise<number> {
  const { values } = parseFlags(
    args,
    { json: { type: "boolean" }, config: { type: "string" } },
    USAGE,
  );
  const report = await diagnose(ctx.cwd, values.config ? { config: values.config } : {});
  process.stdout.write(`${values.json ? JSON.stringify(report, null, 2) : renderDoctor(report)}\n`);
  return report.problems === 0 ? 0 : 1;
}
