/**
 * Folders outside the project where an agent keeps its own notes and writes them with its
 * tools (Claude Code's `~/.claude/plans/`): denying them breaks the agent (plan mode cannot
 * leave), and they widen no rights. The agent names them (its `stateDirs`).
 */
import { resolve } from "node:path";
import { isInside, physicalPath } from "../util/contained-path.ts";

/** Both the path as written and its tidied form must land inside once links are followed, so a link cannot lead a write elsewhere. */
export function agentStateDirOf(path: string, stateDirs: readonly string[]): string | null {
  for (const dir of stateDirs) {
    const real = physicalPath(resolve(dir));
    if (real === null) continue;
    const landings = [physicalPath(path), physicalPath(resolve(path))];
    if (landings.every((l) => l !== null && l !== real && isInside(real, l))) return dir;
  }
  return null;
}
