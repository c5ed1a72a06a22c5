/**
 * Folders outside the project where an agent keeps its own working notes, which its tools
 * write as ordinary files: Claude Code's plan mode writes `~/.claude/plans/<name>.md` with
 * Write, its todo lists live in `~/.claude/todos/`. Denying them as "outside the root"
 * breaks the agent (plan mode cannot leave), and they hold nothing that widens its rights.
 * Which folders those are is the agent's to say (its `stateDirs`); the caller passes them.
 */
import { resolve } from "node:path";
import { isInside, physicalPath } from "../util/contained-path.ts";

/**
 * The agent state folder `path` (absolute) writes into, or null. Both the path as written
 * and its tidied form must land inside that folder once every link is followed, so a link
 * in it cannot lead a write elsewhere.
 */
export function agentStateDirOf(path: string, stateDirs: readonly string[]): string | null {
  for (const dir of stateDirs) {
    const real = physicalPath(resolve(dir));
    if (real === null) continue;
    const landings = [physicalPath(path), physicalPath(resolve(path))];
    if (landings.every((l) => l !== null && l !== real && isInside(real, l))) return dir;
  }
  return null;
}
