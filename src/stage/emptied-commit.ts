import { existsSync } from "node:fs";
import { join } from "node:path";
import { runGit } from "../match/git.ts";

/**
 * True when the index with the fixes staged records nothing HEAD lacks: git decides emptiness
 * before the hook runs, and would record an empty commit without a word. Unsure: false.
 */
export function fixesEmptiedCommit(top: string, gitDir: string): boolean {
  if (existsSync(join(gitDir, "MERGE_HEAD"))) return false;
  if (!runGit(top, ["rev-parse", "--verify", "--quiet", "HEAD"]).ok) return false;
  const diff = runGit(top, ["diff", "--cached", "--quiet", "--ignore-submodules=none"]);
  return diff.ok && !diff.timedOut && !diff.missing;
}
