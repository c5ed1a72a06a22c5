import { accessSync, constants, existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { isCpilotHookCommand } from "../agents/_shared/hook-command.ts";
import { NPM_SHIM } from "../agents/_shared/portable-command.ts";
import { firstProgram, onPath } from "./callback-command.ts";

/** Every string in a JSON value that is a cpilot hook command for `agent`. */
function cpilotCommands(value: unknown, agent: string, out: string[] = []): string[] {
  if (typeof value === "string") {
    if (isCpilotHookCommand(value, agent)) out.push(value);
  } else if (Array.isArray(value)) for (const v of value) cpilotCommands(v, agent, out);
  else if (typeof value === "object" && value !== null)
    for (const v of Object.values(value)) cpilotCommands(v, agent, out);
  return out;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Why an installed hook command cannot start cpilot on this machine, or null when it can:
 * a binary path that is gone (the binary moved), `cpilot` not on PATH, the project's
 * node_modules copy missing. The agents' project-folder variables stand for the root.
 */
export function hookCommandProblem(
  command: string,
  root: string,
  env: NodeJS.ProcessEnv,
): string | null {
  const expanded = command.replace(/\$\{?(CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR)\}?/g, root);
  // Quotes may wrap part of a word: "$CLAUDE_PROJECT_DIR"/node_modules/cpilot/bin/cpilot.sh.
  const program = firstProgram(expanded)?.replace(/["']/g, "") ?? null;
  if (program === null) return "it is empty";
  if (program === "npx") {
    return existsSync(join(root, "node_modules", ".bin", "cpilot"))
      ? null
      : "npx finds no cpilot: node_modules/.bin/cpilot is missing (install the project's dependencies)";
  }
  if (program.includes("/")) {
    const full = isAbsolute(program) ? program : join(root, program);
    if (!executable(full)) return `${program} does not exist or is not executable`;
    return full.endsWith(NPM_SHIM) ? shimProblem(full, env) : null;
  }
  return onPath(program, env) !== null ? null : `${program} is not on PATH`;
}

/**
 * What the npm package's sh shim (bin/cpilot.sh) would fail at: it starts the one
 * @cpilot/<platform> binary beside it, else the Node launcher, which needs node on PATH.
 */
function shimProblem(shim: string, env: NodeJS.ProcessEnv): string | null {
  const modules = dirname(dirname(dirname(shim)));
  let binaries: string[] = [];
  try {
    binaries = readdirSync(join(modules, "@cpilot"))
      .map((name) => join(modules, "@cpilot", name, "cpilot"))
      .filter(executable);
  } catch {
    // no platform package: the launcher decides
  }
  if (binaries.length === 1 || onPath("node", env) !== null) return null;
  return binaries.length === 0
    ? "node_modules/@cpilot/ has no cpilot binary for this platform (installed with --omit=optional?) and node, which the launcher the shim falls back to needs, is not on PATH"
    : "node_modules/@cpilot/ has several cpilot binaries and node, which picks one, is not on PATH";
}

/** The opencode plugin's `const CPILOT = [...]` argv as a command line, or null. */
function pluginCommand(text: string): string | null {
  const m = /^const CPILOT: string\[\] = (\[.*\]);$/m.exec(text);
  if (!m) return null;
  try {
    const argv = JSON.parse(m[1]!) as string[];
    return `${argv.map((a) => (/\s/.test(a) ? `'${a}'` : a)).join(" ")} hook opencode`;
  } catch {
    return null;
  }
}

/** The first broken cpilot hook command in a hook file, as a problem line; null when all start. */
export function brokenHookCommand(
  path: string,
  agent: string,
  root: string,
  env: NodeJS.ProcessEnv,
): string | null {
  let commands: string[];
  try {
    const text = readFileSync(path, "utf8");
    const plugin = agent === "opencode" ? pluginCommand(text) : null;
    commands =
      agent === "opencode" ? (plugin ? [plugin] : []) : cpilotCommands(JSON.parse(text), agent);
  } catch {
    return null;
  }
  for (const command of new Set(commands)) {
    const why = hookCommandProblem(command, root, env);
    if (why !== null)
      return `the hook command in ${path} cannot start cpilot: ${why} (\`${command}\`); run \`cpilot install ${agent}\` again`;
  }
  return null;
}
