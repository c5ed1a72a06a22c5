import { existsSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { NEAREST_NPM_SHIM } from "../../platform/nearest-npm-shim.ts";
import { isCompiledBinary, NPM_SHIM } from "../../platform/self-command.ts";

/** How a hook config shared with the team can reach the project's own copy of cpilot. */
export interface ProjectReach {
  /** The variable the agent sets to the project folder for hook commands (AgentProtocol). */
  readonly projectDirVar?: string;
  /** The command is run by a file inside the project (OpenCode's plugin): a "./" path finds it. */
  readonly fromProjectFile?: boolean;
}

/** True when the project's package.json depends on cpilot (teammates get it from npm install). */
export function cpilotIsDependency(root: string): boolean {
  try {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<
      string,
      Record<string, string> | undefined
    >;
    return Boolean(pkg.devDependencies?.cpilot ?? pkg.dependencies?.cpilot);
  } catch {
    return false;
  }
}

/**
 * The cpilot command for a hook file shared with the team (committed to the repo): one that
 * works on every teammate's machine, never this machine's binary path. The project's own
 * node_modules copy when it depends on cpilot, else `cpilot` from PATH. Through the agent's
 * project-folder variable it is the package's sh shim, which starts the binary with no Node;
 * OpenCode's plugin finds the shim from its own place in the project (a "./" path). Codex
 * and Cursor have no such variable and may run hooks from a subfolder, so the command looks
 * for the shim from the hook's folder up (see NEAREST_NPM_SHIM); never through npx, which
 * runs a `cpilot` the project's own package.json names. Windows has no sh: npx there.
 *
 * @example
 * portableCpilot(claudeProtocol, root) // '"$CLAUDE_PROJECT_DIR"/node_modules/cpilot/bin/cpilot.sh'
 */
export function portableCpilot(
  reach: ProjectReach,
  root: string,
  platform = process.platform,
): string {
  if (!cpilotIsDependency(root)) return "cpilot";
  if (reach.fromProjectFile) return `./${NPM_SHIM}`;
  const dirVar = reach.projectDirVar;
  if (!dirVar) return platform === "win32" ? "npx --no-install cpilot" : NEAREST_NPM_SHIM;
  // Windows has no sh to start the shim outside Git Bash: npm's own .bin wrapper (Node).
  return platform === "win32"
    ? `"$${dirVar}"/node_modules/.bin/cpilot`
    : `"$${dirVar}"/${NPM_SHIM}`;
}

/** Why the portable command would not start cpilot on this machine, or null when it would. */
export function portableProblem(command: string, root: string, env = process.env): string | null {
  if (command.startsWith("cpilot ") || command === "cpilot") {
    if (onPath("cpilot", env)) return null;
    return isCompiledBinary()
      ? `cpilot is not on PATH here (this one is ${process.execPath})`
      : "cpilot is not on PATH here";
  }
  const file = command.includes(NPM_SHIM) ? NPM_SHIM : "node_modules/.bin/cpilot";
  if (!existsSync(join(root, file)))
    return `${file} is missing here (run your package manager's install)`;
  return null;
}

/** Where `name` is on PATH, or null. */
function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir !== "" && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}
