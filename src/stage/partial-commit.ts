// `git commit <paths>` runs the pre-commit hook on a temporary index, while git's own index
// waits as <git dir>/index.lock with the same paths. A fix staged only in the temporary one
// is committed, and the next plain commit would revert it: it is staged in both.
import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

const PARTIAL_INDEX = /^next-index-\d+\.lock$/;

export function waitingOwnIndex(top: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const indexFile = env.GIT_INDEX_FILE;
  if (!indexFile || !PARTIAL_INDEX.test(basename(indexFile))) return null;
  const own = join(dirname(resolve(top, indexFile)), "index.lock");
  return existsSync(own) ? own : null;
}
