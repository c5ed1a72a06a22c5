/**
 * The file sets `cpilot check` runs on: staged, changed since a ref, all, or named by the
 * user. Every path comes back relative to `root` with `/` separators. git is asked with
 * argument arrays and `-z` output, so no file name (spaces, quotes, newlines, `$(…)`)
 * can break the parse or reach a shell.
 */
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

/** Paths relative to cwd (= root) and limited to it, renames as delete + create, no submodules. */
const DIFF = [
  "--name-status",
  "-z",
  "--no-renames",
  "--no-ext-diff",
  "--ignore-submodules=all",
  "--relative",
];

/** What `git commit` would record: index against HEAD (everything is created before the first commit). */
export function stagedFiles(root: string): FileChange[] {
  return toChanges(
    parseNameStatus(gitOrThrow(root, ["diff", "--cached", ...DIFF], "list staged files")),
  );
}

/**
 * The working tree against `ref` (staged or not), plus untracked files that are not
 * ignored, as created. In a repository with no commit yet and `ref` "HEAD", every file
 * is created. Asked with `git diff-index`, which reads the index and never writes it: `git
 * diff` refreshes it and rewrites it under index.lock whenever a file's stat data moved
 * (whatever GIT_OPTIONAL_LOCKS says), and a git command run beside it then fails. A file
 * whose times moved but not its text is listed as modified: checked once more, never missed.
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
  // Both scan the work tree: on two cores they overlap.
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
 * Every file of the project, as modified, in git's order. Inside git: the files git tracks
 * that are still on disk, as lefthook's and prek's `--all-files` do; a new file not yet
 * added is checked by `check` (changed since HEAD, untracked files included) or by naming
 * it. Not walking the tree for untracked files keeps a virtualenv or build output nobody
 * ignored out of the list, and saves git's slowest scan. Outside git: a .gitignore-aware
 * walk ({@link walkFiles}).
 */
export async function allFiles(root: string): Promise<FileChange[]> {
  const files = (await gitFiles(root, [], { untracked: false })) ?? walkFiles(root);
  return files.map((path) => ({ path, kind: "modified" }));
}

/**
 * Files the user named, relative to `cwd` or absolute. A directory stands for the files
 * below it (gitignore-aware, as {@link allFiles}, sorted); a path that does not exist is deleted;
 * everything else is modified. Order follows `paths`, without duplicates.
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

/**
 * Existing files below `pathspecs` (all when empty) that git tracks or would add (tracked
 * only when `untracked` is false). Two git
 * scans run at once on two cores: `ls-files --others` walks the tree for untracked files
 * (the slow one; untracked files are on disk by definition) while `ls-files --cached`
 * reads the index, whose files are confirmed on disk meanwhile with one directory listing
 * per folder ({@link onDisk}) rather than a stat per file, which is what `git diff-files`
 * pays and which costs several times more. Asking for both in one scan would leave that
 * confirming for after the walk. A
 * submodule is a folder, so no file. Null outside a git work tree; `.cpilot/` is left out.
 * Untracked files come first, then tracked ones, each in git's order.
 */
async function gitFiles(
  root: string,
  pathspecs: readonly string[],
  options: { untracked: boolean } = { untracked: true },
): Promise<string[] | null> {
  const specs = pathspecs.map((p) => (p === "" ? "." : p));
  const othersArgs = ["ls-files", "-z", "--others", "--exclude-standard"];
  const cachedArgs = ["ls-files", "-z", "--cached"];
  // a name that is not UTF-8 goes to git as its bytes, through a file (rare: no overlap)
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
