import { statSync } from "node:fs";
import { join } from "node:path";
import { findGitDir } from "./git-dir.ts";

/**
 * The stage folder of the repository holding `cwd` when one is there (changes a
 * `check --staged` set aside and has not put back yet), else null. Every cpilot call asks,
 * so this is a few stat calls and imports nothing heavy.
 */
export function pendingStage(cwd: string): string | null {
  // Never throws: every call (the pre-write hook too) asks before doing its job, and a git
  // folder it cannot look into (`.git/cpilot` a file, no permission) holds nothing of ours.
  try {
    const gitDir = findGitDir(cwd);
    if (gitDir === null) return null;
    const dir = join(gitDir, "cpilot", "stage");
    return statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? dir : null;
  } catch {
    return null;
  }
}
