import { existsSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { isCompiledBinary } from "./self-command.ts";

/** The env var an agent sets to the project folder when it runs a hook. */
const PROJECT_DIR_VAR: Record<string, string> = {
  claude: "CLAUDE_PROJECT_DIR",
  gemini: "GEMINI_PROJECT_DIR",
};

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
 * node_modules copy when it depends on cpilot (through the agent's project-folder variable,
 * or `npx --no-install` where the agent has none), else `cpilot` from PATH.
 *
 * @example
 * portableCpilot("claude", root) // '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/cpilot'
 */
export function portableCpilot(agent: string, root: string): string {
  if (!cpilotIsDependency(root)) return "cpilot";
  const dirVar = PROJECT_DIR_VAR[agent];
  return dirVar ? `"$${dirVar}"/node_modules/.bin/cpilot` : "npx --no-install cpilot";
}

/** Why the portable command would not start cpilot on this machine, or null when it would. */
export function portableProblem(command: string, root: string, env = process.env): string | null {
  if (command.startsWith("cpilot ") || command === "cpilot") {
    if (onPath("cpilot", env)) return null;
    return isCompiledBinary()
      ? `cpilot is not on PATH here (this one is ${process.execPath})`
      : "cpilot is not on PATH here";
  }
  if (!existsSync(join(root, "node_modules", ".bin", "cpilot")))
    return "node_modules/.bin/cpilot is missing here (run your package manager's install)";
  return null;
}

/** Where `name` is on PATH, or null. */
function onPath(name: string, env: NodeJS.ProcessEnv): string | null {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir !== "" && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}
