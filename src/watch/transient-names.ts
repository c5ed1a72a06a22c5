import { runGit } from "../match/git.ts";
import { fileHash, type Settled } from "./settled.ts";

/**
 * The paths of a batch that are gone when it is taken and never were a file anyone knew:
 * an agent's atomic write leaves such names behind (`src/a.ts.a19053cc76ac.tmp` renamed
 * onto `src/a.ts`, `sed -i`'s `sedXXXXXX`), and checking them only fails. A file that git
 * tracks or that an earlier batch saw is a real deletion and stays in the batch.
 */
export function vanishedStrangers(
  root: string,
  paths: readonly string[],
  settled: Settled,
): Set<string> {
  const gone = paths.filter((path) => fileHash(root, path) === null && !settled.knewFile(path));
  if (gone.length === 0) return new Set();
  const listed = runGit(root, ["ls-files", "-z", "--cached", "--", ...gone]);
  const tracked = new Set(listed.ok ? listed.stdout.split("\0").filter(Boolean) : []);
  return new Set(gone.filter((path) => !tracked.has(path)));
}
