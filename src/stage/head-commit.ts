import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
/** A branch name as git stores it: below refs/, no step up, nothing a file name could hide. */
const REF = /^refs\/(?:[A-Za-z0-9._\-/]+)$/;
/** Refs each linked worktree keeps for itself, beside its own HEAD. */
const PER_WORKTREE = /^refs\/(?:bisect|worktree|rewritten)\//;

/**
 * HEAD's commit id read from the git folder, without a git process: a loose ref or a line of
 * packed-refs. Null whenever anything is not plainly that (no commit yet, a symbolic ref
 * chain, the reftable format, git's folders moved by the environment): the caller asks git.
 */
export function headCommit(gitDir: string, env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.GIT_COMMON_DIR || env.GIT_NAMESPACE) return null;
  const head = readText(join(gitDir, "HEAD"))?.trim();
  if (head === undefined || head === null) return null;
  if (ID.test(head)) return head;
  const ref = /^ref: (.+)$/.exec(head)?.[1];
  if (ref === undefined || !REF.test(ref) || ref.split("/").some((p) => p === "" || p === ".."))
    return null;
  const common = readText(join(gitDir, "commondir"));
  if (common === null) return null;
  const commonDir = common?.trim() ? resolve(gitDir, common.trim()) : gitDir;
  if (existsSync(join(commonDir, "reftable"))) return null;
  const loose = readText(join(PER_WORKTREE.test(ref) ? gitDir : commonDir, ref));
  if (loose === null) return null;
  if (loose !== undefined) {
    const id = loose.trim();
    return ID.test(id) ? id : null;
  }
  const packed = readText(join(commonDir, "packed-refs"));
  if (packed === undefined || packed === null) return null;
  for (const line of packed.split("\n")) {
    const space = line.indexOf(" ");
    if (line.slice(space + 1) !== ref) continue;
    const id = line.slice(0, space);
    return ID.test(id) ? id : null;
  }
  return null;
}

/** Undefined when it is not there; null when it cannot be read (a loose ref unread would leave packed-refs' older id). */
function readText(path: string): string | undefined | null {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? undefined : null;
  }
}
