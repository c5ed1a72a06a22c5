/**
 * Folders outside the project where an agent keeps its own working notes, which its tools
 * write as ordinary files: Claude Code's plan mode writes `~/.claude/plans/<name>.md` with
 * Write, its todo lists live in `~/.claude/todos/`. Denying them as "outside the root"
 * breaks the agent (plan mode cannot leave), and they hold nothing that widens its rights.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { isInside, physicalPath } from "../util/contained-path.ts";

/** The agent's own state folders, for `agent` (as a hook names it), with `env`'s home. */
export function agentStateDirs(agent: string | undefined, env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || homedir();
  switch (agent) {
    case "claude": {
      const dir = env.CLAUDE_CONFIG_DIR || join(home, ".claude");
      return [join(dir, "plans"), join(dir, "todos")];
    }
    case "gemini":
      // plan mode keeps its plans under the per-project temp folder
      return [join(home, ".gemini", "tmp")];
    case "cursor":
      return [join(home, ".cursor", "plans")];
    default:
      return [];
  }
}

/**
 * The agent state folder `path` (absolute) writes into, or null. Both the path as written
 * and its tidied form must land inside that folder once every link is followed, so a link
 * in it cannot lead a write elsewhere.
 */
export function agentStateDirOf(
  path: string,
  agent: string | undefined,
  env: NodeJS.ProcessEnv,
): string | null {
  for (const dir of agentStateDirs(agent, env)) {
    const real = physicalPath(resolve(dir));
    if (real === null) continue;
    const landings = [physicalPath(path), physicalPath(resolve(path))];
    if (landings.every((l) => l !== null && l !== real && isInside(real, l))) return dir;
  }
  return null;
}
