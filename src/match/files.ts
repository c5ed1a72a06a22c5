// The file sets `cpilot check` runs on. git is asked with argument arrays and `-z` output, so
// no file name can break the parse or reach a shell.
import { lstatSync } from "node:fs";
import type { ChangeKind, FileChange } from "../model/batch.ts";
import { CpilotError } from "../util/errors.ts";
import { fsPath, hasEscapedBytes } from "../util/path-bytes.ts";
import { STATE_DIR } from "../util/state-layout.ts";
import { parseNameStatus, toChanges } from "./_name-status.ts";
import { onDisk } from "./_on-disk.ts";
import { gitFailure, gitOrThrow, isNotRepo, runGit, runGitAsync, splitNul } from "./git.ts";
import { runGitOnNames } from "./git-names.ts";
import { rootRelative } from "./root-relative.ts";
import { walkFiles } from "./walk.ts";

const DIFF = [
  "--name-status",
  "-z",
  "--no-renames",
  "--no-ext-diff",
  "--ignore-submodules=all",
  "--relative",
];

/** Index against HEAD (everything is created before the first commit). */
export function stagedFiles(root: string): FileChange[] {
  return toChanges(
    parseNameStatus(gitOrThrow(root, ["diff", "--cached", ...DIFF], "list staged files")),
  );
}

/**
 * The working tree against `ref`, plus untracked files. `git diff-index` never writes the
 * index, where `git diff` may rewrite it under index.lock and fail a git command beside it.
 */
export async function changedFiles(root: string, ref = "HEAD"): Promise<FileChange[]> {
  if (ref === "" || ref.startsWith("-") || ref.includes("\0")) {
    throw new CpilotError(`Cannot compare with ${JSON.stringify(ref)}: it is not a git revision`, {
      hint: "pass a branch, tag or commit, such as --changed main",
    });
  }
  const args = ["diff-index", ...DIFF, ref, "--"];
  const action = `list files changed since ${JSON.stringify(ref)}`;
  const othersArgs = ["ls-files", "-z", "--others", "--exclude-standard"];
  const [diff, others] = await Promise.all([
    runGitAsync(root, args),
    runGitAsync(root, othersArgs),
  ]);
  if (!diff.ok) {
    if (
      ref === "HEAD" &&
      !diff.timedOut &&
      !isNotRepo(diff) &&
      !runGit(root, ["rev-parse", "--verify", "-q", "HEAD"]).ok
    ) {
      return ((await gitFiles(root, [])) ?? []).map((path) => ({ path, kind: "created" }));
    }
    throw gitFailure(root, args, diff, action);
  }
  const changes = parseNameStatus(diff.stdout);
  if (!others.ok) throw gitFailure(root, othersArgs, others, action);
  for (const path of splitNul(others.stdout)) {
    if (path.endsWith("/")) continue; // a nested repository, not a file
    const kind = changes.get(path);
    // deleted from the index but still on disk: it is there in both
    if (kind === undefined || kind === "deleted") changes.set(path, kind ? "modified" : "created");
  }
  return toChanges(changes);
}

/**
 * Every file of the project, as modified. Inside git: the tracked files on disk, as lefthook's
 * and prek's `--all-files` do, which keeps an unignored virtualenv out; outside git, a
 * .gitignore-aware walk.
 */
export async function allFiles(root: string): Promise<FileChange[]> {
  const files = (await gitFiles(root, [], { untracked: false })) ?? walkFiles(root);
  return files.map((path) => ({ path, kind: "modified" }));
}

/**
 * Files the user named, relative to `cwd` or absolute. A directory stands for the files below
 * it; a path that does not exist is deleted; order follows `paths`.
 *
 * @throws CpilotError when a path is outside `root`.
 */
export async function explicitFiles(
  root: string,
  paths: readonly string[],
  cwd: string,
): Promise<FileChange[]> {
  const named = paths.map((given) => {
    const path = rootRelative(root, cwd, given);
    return { path, kind: kindOnDisk(path === "" ? root : `${root}/${path}`) };
  });
  const dirs = named.filter((n) => n.kind === "directory").map((n) => n.path);
  const below =
    dirs.length === 0
      ? []
      : ((await gitFiles(root, dirs)) ?? dirs.flatMap((d) => walkFiles(root, d))).sort();
  const result = new Map<string, ChangeKind>();
  for (const { path, kind } of named) {
    if (kind !== "directory") {
      if (!result.has(path)) result.set(path, kind);
      continue;
    }
    for (const file of below) {
      if ((path === "" || file.startsWith(`${path}/`)) && !result.has(file))
        result.set(file, "modified");
    }
  }
  return [...result].map(([path, kind]) => ({ path, kind }));
}

function kindOnDisk(abs: string): ChangeKind | "directory" {
  try {
    return lstatSync(fsPath(abs)).isDirectory() ? "directory" : "modified";
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? "deleted" : "modified";
  }
}

/** Files below `pathspecs` git tracks or would add; the untracked walk and the index listing run at once. Null outside git. */
async function gitFiles(
  root: string,
  pathspecs: readonly string[],
  options: { untracked: boolean } = { untracked: true },
): Promise<string[] | null> {
  const specs = pathspecs.map((p) => (p === "" ? "." : p));
  const othersArgs = ["ls-files", "-z", "--others", "--exclude-standard"];
  const cachedArgs = ["ls-files", "-z", "--cached"];
  // a name that is not UTF-8 goes to git as its bytes, through a file
  const list = (args: string[]) =>
    specs.some(hasEscapedBytes)
      ? Promise.resolve(runGitOnNames(root, [...args, "--"], specs))
      : runGitAsync(root, [...args, "--", ...specs]);
  const walking = options.untracked ? list(othersArgs) : null;
  const indexed = await list(cachedArgs);
  if (!indexed.ok) {
    if (walking !== null) await walking;
    if (isNotRepo(indexed)) return null;
    throw gitFailure(root, cachedArgs, indexed, `list the files in ${root}`);
  }
  const exists = onDisk(root);
  const stateDir = `${STATE_DIR}/`;
  const tracked: string[] = [];
  let last = "";
  for (const path of splitNul(indexed.stdout)) {
    // an unmerged path is listed once per stage, one after the other
    if (path === last || path.startsWith(stateDir)) continue;
    last = path;
    if (exists(path)) tracked.push(path);
  }
  if (walking === null) return tracked;
  const others = await walking;
  if (!others.ok) throw gitFailure(root, othersArgs, others, `list the files in ${root}`);
  const untracked = splitNul(others.stdout).filter(
    // another repository is listed as its folder, with a trailing slash
    (path) => !path.endsWith("/") && !path.startsWith(stateDir),
  );
  return untracked.length === 0 ? tracked : [...untracked, ...tracked];
}
