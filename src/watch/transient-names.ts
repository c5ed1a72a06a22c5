import { runGit } from "../match/git.ts";
import { fileHash, type Settled } from "./settled.ts";

/**
 * Paths gone when the batch is taken that no one knew as a file: an atomic write's temp
 * names (`a.ts.1a2b.tmp`, `sed -i`'s `sedXXXXXX`). A tracked or earlier-seen file is a real
 * deletion and stays.
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
