import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { type ProjectSnapshot, readProjectAhead, type StatusAhead } from "../cache/content.ts";
import { configRootAhead } from "../config/find.ts";
import { allFiles, changedFiles, explicitFiles, stagedFiles } from "../match/files.ts";
import { gitTimeoutMs, splitNul } from "../match/git.ts";
import { runGitOnNames } from "../match/git-names.ts";
import { gitRoot } from "../match/git-root.ts";
import type { FileChange } from "../model/batch.ts";
import { runSync } from "../platform/run-sync.ts";
import { CpilotError } from "../util/errors.ts";
import { rebase } from "./_root-paths.ts";
import type { WholeStart } from "./check-whole-record.ts";

/** The next word, when git knows it as a commit. */
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
    if (arg === "--changed" && next !== undefined && !next.startsWith("-")) {
      if (isCommit(next, cwd)) {
        ref = next;
        i++;
      } else if (!existsSync(resolve(cwd, next))) {
        // neither a revision nor a file: a misspelt branch, not PATHS to combine with
        throw new CpilotError(
          `Cannot compare with "${next}": git knows no branch, tag or commit of that name`,
          {
            hint: "pass a branch, tag or commit (git branch -a lists them), such as --changed main",
          },
        );
      }
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

/** PATHS, --all, --staged, or --changed REF (the default). */
export async function selectFiles(
  root: string,
  cwd: string,
  paths: string[],
  mode: { staged: boolean; all: boolean; changedRef: string | undefined },
): Promise<FileChange[]> {
  if (paths.length > 0) return assertKnown(root, await explicitFiles(root, paths, cwd));
  if (mode.all) return allFiles(root);
  // A root holding .git is its own top level: no need to ask git (a process per call).
  const git = existsSync(join(root, ".git")) ? root : gitRoot(root);
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

/**
 * Asked of git before the config loads: listing (git's untracked walk above all) is most of
 * a large tree's check before its runs, and needs only the root. null without a config file.
 */
export function beginAllFiles(cwd: string, explicit: string | undefined): AllStart | null {
  const root = configRootAhead(cwd, explicit);
  return root === null ? null : allFilesFrom(root);
}

/** {@link beginAllFiles} for a known root, with its `git status` when already started. */
export function allFilesFrom(root: string, status?: StatusAhead | null): AllStart {
  // what the result cache's keys read (an unchanged project replays) also says which
  // tracked files are on disk: the files come from it, or from a listing of their own
  const project = readProjectAhead(root, status).catch(() => null);
  const files = project.then(async (p) => {
    const tracked = p?.trackedFiles();
    if (tracked == null) return allFiles(root);
    return tracked.map((path): FileChange => ({ path, kind: "modified" }));
  });
  files.catch(() => {}); // awaited once the config is loaded, or dropped with a config error
  return { root, files, project };
}

/** `check --all` begun before its config loads: see {@link beginAllFiles}. */
export interface AllStart {
  readonly root: string;
  readonly files: Promise<FileChange[]>;
  /** For the result cache's keys. */
  readonly project: Promise<ProjectSnapshot | null>;
  /** Set when this check may be kept whole for a replay (see check-whole-replay.ts). */
  readonly whole?: WholeStart;
}

/** Only when git still knows it: anything else is a typo, and checking nothing would pass silently. */
function assertKnown(root: string, files: FileChange[]): FileChange[] {
  const missing = files.filter((f) => f.kind === "deleted").map((f) => f.path);
  if (missing.length === 0) return files;
  const known = new Set<string>();
  for (const args of [
    ["ls-files", "-z", "--cached", "--"],
    ["ls-tree", "-r", "-z", "--name-only", "HEAD", "--"],
  ]) {
    const r = runGitOnNames(root, args, missing);
    if (r.ok) for (const path of splitNul(r.stdout)) known.add(path);
  }
  const unknown = missing.find((path) => !known.has(path));
  if (unknown !== undefined) {
    throw new CpilotError(`Cannot check "${unknown}": no such file or directory`, {
      hint: "check the spelling (paths are relative to the current folder); a deleted file can be named while git still knows it",
    });
  }
  return files;
}
