import { existsSync } from "node:fs";
import { join } from "node:path";
import type { FileChange } from "../engine/batch.ts";
import { gitTimeoutMs } from "../match/_git.ts";
import { allFiles, changedFiles, explicitFiles, gitRoot, stagedFiles } from "../match/files.ts";
import { runSync } from "../platform/run-sync.ts";
import { CpilotError } from "../util/errors.ts";

/** `--changed` takes an optional REF: the next word, when git knows it as a commit. */
export function splitChangedRef(
  args: string[],
  cwd: string,
): { args: string[]; ref: string | undefined } {
  const out: string[] = [];
  let ref: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith("--changed=")) {
      ref = arg.slice("--changed=".length);
      out.push("--changed");
      continue;
    }
    out.push(arg);
    const next = args[i + 1];
    if (arg === "--changed" && next !== undefined && !next.startsWith("-") && isCommit(next, cwd)) {
      ref = next;
      i++;
    }
  }
  return { args: out, ref };
}

function isCommit(ref: string, cwd: string): boolean {
  return (
    runSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], {
      cwd,
      timeoutMs: gitTimeoutMs(),
    }).status === 0
  );
}

/** The files `cpilot check` runs on: PATHS, --all, --staged, or --changed REF (the default). */
export async function selectFiles(
  root: string,
  cwd: string,
  paths: string[],
  mode: { staged: boolean; all: boolean; changedRef: string | undefined },
): Promise<FileChange[]> {
  if (paths.length > 0) return explicitFiles(root, paths, cwd);
  // A root holding .git is its own top level: no need to ask git (a process per call).
  const git = existsSync(join(root, ".git")) ? root : gitRoot(root);
  if (mode.all) return allFiles(root);
  if (git === null) {
    throw new CpilotError(
      `Cannot find changed files in "${root}": it is not inside a git work tree`,
      {
        hint: "pass PATHS or --all",
      },
    );
  }
  const inRoot = (changes: FileChange[]): FileChange[] => rebase(changes, git, root);
  if (mode.staged) return inRoot(stagedFiles(git));
  return inRoot(await changedFiles(git, mode.changedRef ?? "HEAD"));
}

/** git reports paths from its top level; the config may sit in a subfolder. */
export function rebase(changes: FileChange[], gitTop: string, root: string): FileChange[] {
  if (gitTop === root) return changes;
  const prefix = `${root
    .slice(gitTop.length + 1)
    .split("\\")
    .join("/")}/`;
  return changes
    .filter((c) => c.path.startsWith(prefix))
    .map((c) => ({ path: c.path.slice(prefix.length), kind: c.kind }));
}
