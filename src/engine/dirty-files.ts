import { gitTimeoutMs } from "../match/git.ts";
import { runSync, utf8 } from "../platform/run-sync.ts";
import { isStatePath } from "../util/state-layout.ts";

/**
 * Files git sees as changed or untracked (not ignored), relative to `root`; null outside a
 * git work tree. Taken before and after callbacks run, it finds files a callback rewrote
 * that were not part of the batch (a generator's output, a formatter run on the project).
 */
export function dirtyFiles(root: string): string[] | null {
  const r = runSync(
    "git",
    ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames"],
    { cwd: root, timeoutMs: gitTimeoutMs() },
  );
  if (r.status !== 0) return null;
  const out = utf8(r.stdout);
  const files: string[] = [];
  for (const entry of out.split("\0")) {
    // cpilot's own run logs and state are never a callback's rewrite.
    if (entry.length > 3 && !isStatePath(entry.slice(3))) files.push(entry.slice(3));
  }
  return files;
}
