// `git commit <paths>` (a partial commit) runs the pre-commit hook on a temporary index:
// GIT_INDEX_FILE=<git dir>/next-index-<pid>.lock, HEAD plus those paths. Git has already
// written the same paths into the repository's own index, which waits as <git dir>/index.lock
// until the commit is made, then becomes the index. A fix staged only in the temporary index
// is committed while the own index keeps the unfixed text: `git status` then shows the fix
// staged for reverting, and the next plain `git commit` would revert it. Staging the fix in
// that waiting index too keeps both alike. (Git writes nothing more into it after the hook,
// and if the commit fails it is dropped whole, as without cpilot; seen with git 2.39.)
import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

const PARTIAL_INDEX = /^next-index-\d+\.lock$/;

/** The repository's own index waiting beside a partial commit's temporary one, or null. */
export function waitingOwnIndex(top: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const indexFile = env.GIT_INDEX_FILE;
  if (!indexFile || !PARTIAL_INDEX.test(basename(indexFile))) return null;
  const own = join(dirname(resolve(top, indexFile)), "index.lock");
  return existsSync(own) ? own : null;
}
