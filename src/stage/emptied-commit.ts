import { existsSync } from "node:fs";
import { join } from "node:path";
import { runGit } from "../match/git.ts";

/**
 * True when the index, with the callbacks' fixes staged, records nothing HEAD does not
 * already hold: the staged change was only what a formatter takes back (spacing), and git
 * would record an empty commit without a word (it decides emptiness before the hook runs).
 * A merge in progress may record HEAD's tree on purpose; a repository without a commit yet
 * has nothing to compare with. Unsure (git failed): false, the commit is not stopped on a guess.
 */
export function fixesEmptiedCommit(top: string, gitDir: string): boolean {
  if (existsSync(join(gitDir, "MERGE_HEAD"))) return false;
  if (!runGit(top, ["rev-parse", "--verify", "--quiet", "HEAD"]).ok) return false;
  const diff = runGit(top, ["diff", "--cached", "--quiet", "--ignore-submodules=none"]);
  return diff.ok && !diff.timedOut && !diff.missing;
}
