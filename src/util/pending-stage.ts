import { statSync } from "node:fs";
import { join } from "node:path";
import { findGitDir } from "./git-dir.ts";

/** The stage folder when a `check --staged` set work aside and has not put it back. Every call asks: a few stats. */
export function pendingStage(cwd: string): string | null {
  // Never throws: a git folder it cannot look into holds nothing of ours.
  try {
    const gitDir = findGitDir(cwd);
    if (gitDir === null) return null;
    const dir = join(gitDir, "cpilot", "stage");
    return statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? dir : null;
  } catch {
    return null;
  }
}
