import { accessSync, constants, existsSync, readdirSync, statSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { AGENTS } from "../agents/all-agents.ts";
import type { HookPlace } from "../agents/contract.ts";
import { unwrapFailClosed } from "../hook/fail-closed-command.ts";
import { NEAREST_NPM_SHIM } from "../platform/nearest-npm-shim.ts";
import { NPM_SHIM } from "../platform/self-command.ts";
import { firstProgram, onPath } from "./callback-command.ts";

function projectDirVars(): RegExp {
  const names = AGENTS.flatMap((a) => (a.projectDirVar === undefined ? [] : [a.projectDirVar]));
  return new RegExp(`\\$\\{?(${names.join("|")})\\}?`, "g");
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A binary path that is gone, `cpilot` not on PATH, the project's copy missing; the agents' project variables stand for the root. */
export function hookCommandProblem(
  command: string,
  root: string,
  env: NodeJS.ProcessEnv,
  platform = process.platform,
): string | null {
  // the nearest shim from the hook's folder up is the root's when the hook runs at the root
  const expanded = unwrapFailClosed(command)
    .replace(projectDirVars(), root)
    .replace(NEAREST_NPM_SHIM, join(root, NPM_SHIM));
  // Quotes may wrap part of a word: "$CLAUDE_PROJECT_DIR"/node_modules/cpilot/bin/cpilot.sh.
  const program = firstProgram(expanded)?.replace(/["']/g, "") ?? null;
  if (program === null) return "it is empty";
  if (program === "npx") {
    if (!existsSync(join(root, "node_modules", ".bin", "cpilot")))
      return "npx finds no cpilot: node_modules/.bin/cpilot is missing (install the project's dependencies)";
    // Windows keeps npx (no sh for the shim finder); elsewhere it is an older install
    return platform === "win32"
      ? null
      : "it starts cpilot through npx, which runs a `cpilot` the project's package.json names in cpilot's place (an older install)";
  }
  if (program.includes("/")) {
    const full = isAbsolute(program) ? program : join(root, program);
    if (!executable(full)) return `${program} does not exist or is not executable`;
    return full.endsWith(NPM_SHIM) ? shimProblem(full, env) : null;
  }
  return onPath(program, env) !== null ? null : `${program} is not on PATH`;
}

/** It starts the @cpilot/<platform> binary beside it, else the Node launcher, which needs node on PATH. */
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

/** null when all start. */
export function brokenHookCommand(
  place: HookPlace,
  agent: string,
  root: string,
  env: NodeJS.ProcessEnv,
): string | null {
  for (const command of new Set(place.commands)) {
    const why = hookCommandProblem(command, root, env);
    if (why !== null)
      return `the hook command in ${place.path} cannot start cpilot: ${why} (\`${command}\`); run \`cpilot install ${agent}\` again`;
  }
  return null;
}
