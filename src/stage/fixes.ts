import { runGitBytes, runGitBytesWithList } from "../match/git.ts";
import { hasEscapedBytes } from "../util/path-bytes.ts";
import {
  chmodSync,
  dirname,
  join,
  lstatSync,
  mkdirSync,
  readFileSync,
  writeFileSync,
} from "./byte-name-fs.ts";
import { gitOnPaths, gitWithNames } from "./git-paths.ts";
import type { Journal } from "./journal.ts";
import { mergeAdjacent } from "./merge-lines.ts";
import { moveFile, onRealFolders, rmIfThere } from "./move.ts";
import { stageInOwnIndex } from "./partial-commit.ts";
import { worktreeChanges } from "./worktree-changes.ts";

/** What became of the files callbacks rewrote during `check --staged`. */
export interface FixReport {
  /** Rewritten staged files now staged with the fix. */
  readonly staged: readonly string[];
  /** Partially staged files whose unstaged changes went back on top of the fix. */
  readonly merged: readonly string[];
  /** Partially staged files whose unstaged changes clash with the fix: the fix is kept aside. */
  readonly conflicts: readonly { readonly path: string; readonly keptAt: string }[];
  /**
   * Fixes staged in a partial commit's index (`git commit <paths>`) that git's own index
   * could not take too: committed fixed, shown by `git status` as not staged.
   */
  readonly ownIndexLags: readonly string[];
  /** Rewritten files left unstaged in the working tree (not staged, or `stageFixed: false`). */
  readonly unstaged: readonly string[];
  /**
   * No staged or set-aside file differed from the index after the runs: nothing was done,
   * and the put-back need not ask git again (see putBack's `noneChanged`).
   */
  readonly noneChanged: boolean;
}

/**
 * After the callbacks ran on the staged content (the working tree equal to the index, but
 * for what callbacks rewrote): stage the rewritten staged files, and for a file whose
 * unstaged changes were set aside, put those changes back on top of the fix with a
 * three-way merge (the file as staged is the base). When they clash, or the file is not
 * text, the unstaged version goes back untouched by the normal put-back and the fixed
 * version is kept in `keptDir`: nothing is lost, and the caller fails the check.
 */
export function settleFixes(options: {
  top: string;
  /** The stage folder, when files were set aside. */
  dir: string | null;
  journal: Journal | null;
  /** Staged paths (from the top) the commit records with content. */
  staged: ReadonlySet<string>;
  stageFixed: boolean;
  keptDir: string;
  /** Paths never touched here (cpilot's own state folder). */
  ignore: (path: string) => boolean;
}): FixReport {
  const { top, dir, journal } = options;
  // Only staged and set-aside files can hold a fix to settle; asking about them alone
  // spares a second pass over the whole tree (other rewrites: see the engine's resync).
  const candidates = [
    ...new Set([...options.staged, ...(journal?.tracked ?? []).map((c) => c.path)]),
  ];
  const changed = worktreeChanges(top, candidates, "list the files callbacks rewrote").filter(
    (p) => !options.ignore(p),
  );
  const report = {
    staged: [] as string[],
    merged: [] as string[],
    conflicts: [] as { path: string; keptAt: string }[],
    unstaged: [] as string[],
    ownIndexLags: [] as readonly string[],
    noneChanged: changed.length === 0,
  };
  if (changed.length === 0) return report;
  const hidden = new Map((journal?.tracked ?? []).map((c) => [c.path, c.deleted]));
  // Partially staged: the unstaged changes go back on top of the fix. Their staged text as
  // checked out (filters applied) is the merge base, read before `git add`. A file with
  // unstaged changes only is not in the commit: the put-back keeps a rewrite of it aside.
  // (A file whose folder a callback swapped for a link is left to the put-back, which keeps
  // the link aside: merging or keeping it here would reach through the link.)
  const partial = changed.filter(
    (p) =>
      hidden.get(p) === false && options.staged.has(p) && dir !== null && onRealFolders(top, p),
  );
  const bases = new Map(partial.map((p) => [p, stagedText(top, p)]));
  const toStage = options.stageFixed ? changed.filter((p) => options.staged.has(p)) : [];
  if (toStage.length > 0) {
    gitOnPaths(top, ["add"], toStage, "stage the files callbacks fixed");
    report.ownIndexLags = stageInOwnIndex(top, toStage);
  }
  report.staged.push(...toStage);
  const stagedNow = new Set(toStage);
  for (const path of changed) {
    if (!stagedNow.has(path) && !hidden.has(path)) report.unstaged.push(path);
  }
  for (const path of partial) {
    const base = bases.get(path) ?? null;
    const merged = base === null ? null : mergeOnTop(top, dir as string, path, base);
    if (merged === "clean") {
      report.merged.push(path);
      continue;
    }
    const keptAt = join(options.keptDir, path);
    mkdirSync(dirname(keptAt), { recursive: true });
    moveFile(join(top, path), keptAt);
    report.conflicts.push({ path, keptAt });
  }
  return report;
}

/** The staged text of `path` as a checkout writes it (eol and filters applied), or null. */
function stagedText(top: string, path: string): Uint8Array | null {
  const args = ["cat-file", "--filters"];
  const r = hasEscapedBytes(path)
    ? gitWithNames(top, args, [`:${path}`], runGitBytesWithList)
    : runGitBytes(top, [...args, `:${path}`]);
  return r.status === 0 ? r.stdout : null;
}

/**
 * Merge the set-aside working copy (ours) with the fix (base: the staged text, theirs: the
 * file as the callback left it). On a clean merge the result replaces the file, with the
 * working copy's mode, and the set-aside copy is dropped: the put-back skips it.
 */
function mergeOnTop(
  top: string,
  dir: string,
  path: string,
  base: Uint8Array,
): "clean" | "conflict" {
  const ours = join(dir, "tracked", path);
  const theirs = join(top, path);
  const oursStat = lstatSync(ours, { throwIfNoEntry: false });
  const theirsStat = lstatSync(theirs, { throwIfNoEntry: false });
  if (!oursStat?.isFile() || !theirsStat?.isFile()) return "conflict";
  const work = join(dir, "merge");
  mkdirSync(work, { recursive: true });
  const basePath = join(work, "base");
  writeFileSync(basePath, base);
  const files = [ours, basePath, theirs];
  const r = files.some(hasEscapedBytes)
    ? gitWithNames(top, ["merge-file", "-p", "--"], files, runGitBytesWithList)
    : runGitBytes(top, ["merge-file", "-p", "--", ...files]);
  let merged: Uint8Array | null = r.status === 0 ? r.stdout : null;
  // git counts changes on neighbouring lines as a clash: try again placing each by the
  // base's line numbers. 255 (a binary file, an error) stays a conflict.
  if (merged === null && r.status !== null && r.status > 0 && r.status < 128) {
    const text = (path: string): string => readFileSync(path).toString("latin1");
    const again = mergeAdjacent(Buffer.from(base).toString("latin1"), text(ours), text(theirs));
    merged = again === null ? null : Buffer.from(again, "latin1");
  }
  if (merged === null) return "conflict";
  const result = join(work, "result");
  writeFileSync(result, merged);
  chmodSync(result, oursStat.mode & 0o7777);
  moveFile(result, theirs); // the git folder may be on another file system (a worktree)
  rmIfThere(ours);
  return "clean";
}
