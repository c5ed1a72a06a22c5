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
import { gitWithNames } from "./git-paths.ts";
import type { IndexBits } from "./index-bits.ts";
import type { Journal } from "./journal.ts";
import { mergeAdjacent } from "./merge-lines.ts";
import { moveFile, onRealFolders, rmIfThere } from "./move.ts";
import { type BlobToStage, stageBlobs } from "./stage-blobs.ts";
import type { WatchVerdict } from "./staged-watch.ts";
import { worktreeChanges } from "./worktree-changes.ts";

/** A staged file that changed while no fixer of it ran (see FixReport). */
export interface Doubtful {
  readonly path: string;
  /** A copy of the person's edit a fixer then ran over. */
  readonly editAt: string | null;
  /** That edit is back in the working tree, and what the fixer made of it is kept here. */
  readonly fixerOutputAt: string | null;
  /** The callback (not a fixer) during whose run it changed; null: between runs. */
  readonly during: string | null;
}

/** What became of the staged files callbacks rewrote, or others changed, during `check --staged`. */
export interface FixReport {
  /** Rewritten staged files now staged with the fix. */
  readonly staged: readonly string[];
  /** Partially staged files whose unstaged changes went back on top of what is there. */
  readonly merged: readonly string[];
  /** Partially staged files whose unstaged changes clash with what is there: that is kept aside. */
  readonly conflicts: readonly { readonly path: string; readonly keptAt: string }[];
  /**
   * Fixes staged in a partial commit's index (`git commit <paths>`) that git's own index
   * could not take too: committed fixed, shown by `git status` as not staged.
   */
  readonly ownIndexLags: readonly string[];
  /** Rewritten files left unstaged in the working tree (`stageFixed: false`). */
  readonly unstaged: readonly string[];
  /**
   * Staged files edited after every run over them had ended: the commit records what the
   * runs read, and the edit stays in the working tree, not staged.
   */
  readonly late: readonly string[];
  /**
   * Staged files that changed while no fixer of them ran: what the runs read is not known,
   * so nothing of theirs is staged and the check fails. `editAt`: a copy of the edit a
   * fixer ran over (it is back in the working tree when `restored`).
   */
  readonly doubtful: readonly Doubtful[];
  /** Staged again by someone else while the check ran: left as they staged it, the check fails. */
  readonly restaged: readonly string[];
  /**
   * No staged or set-aside file differed from the index after the runs: nothing was done,
   * and the put-back need not ask git again (see putBack's `noneChanged`).
   */
  readonly noneChanged: boolean;
}

/**
 * After the callbacks ran on the staged content (the working tree equal to the index, but
 * for what callbacks rewrote): stage what the fixers made of each staged file, as the
 * watch judged it (the bytes then read, never what is on disk by now), and for a file whose
 * unstaged changes were set aside, put those changes back on top of what is there with a
 * three-way merge (the file as staged is the base). When they clash, or the file is not
 * text, the unstaged version goes back untouched by the normal put-back and what was there
 * is kept in `keptDir`: nothing is lost, and the caller fails the check. An edit made
 * meanwhile is never staged (see {@link WatchVerdict}).
 */
export function settleFixes(options: {
  top: string;
  gitDir: string;
  /** The stage folder, when files were set aside. */
  dir: string | null;
  journal: Journal | null;
  /** Staged paths (from the top) the commit records with content. */
  staged: ReadonlySet<string>;
  /** What the watch saw of each of them. */
  verdicts: ReadonlyMap<string, WatchVerdict>;
  /** "<mode> <id>" the index held for each staged path when the check began. */
  indexed: ReadonlyMap<string, string>;
  bits: ReadonlyMap<string, IndexBits>;
  stageFixed: boolean;
  keptDir: string;
  /** A folder of this check's own for the fixes on their way to git (removed after). */
  scratch: string;
  /** Paths never touched here (cpilot's own state folder). */
  ignore: (path: string) => boolean;
}): FixReport {
  const { top, dir, journal } = options;
  const verdict = (p: string): WatchVerdict => options.verdicts.get(p) ?? { kind: "same" };
  const changed = [...options.staged].filter(
    (p) => !options.ignore(p) && verdict(p).kind !== "same",
  );
  // Set-aside files that are not staged hold no fix; only whether one differs matters (putBack).
  const asideOnly = (journal?.tracked ?? [])
    .map((c) => c.path)
    .filter((p) => !options.staged.has(p) && !options.ignore(p));
  const report = {
    staged: [] as string[],
    merged: [] as string[],
    conflicts: [] as { path: string; keptAt: string }[],
    unstaged: [] as string[],
    late: [] as string[],
    doubtful: [] as Doubtful[],
    restaged: [] as readonly string[],
    ownIndexLags: [] as readonly string[],
    noneChanged:
      changed.length === 0 &&
      worktreeChanges(top, asideOnly, "list the files callbacks rewrote").length === 0,
  };
  if (changed.length === 0) return report;
  const hidden = new Map((journal?.tracked ?? []).map((c) => [c.path, c.deleted]));
  // Partially staged: the unstaged changes go back on top of what is there. Their staged
  // text as checked out (filters applied) is the merge base, read before anything is staged.
  // (A file whose folder a callback swapped for a link is left to the put-back, which keeps
  // the link aside: merging or keeping it here would reach through the link.)
  const partial = changed.filter(
    (p) => hidden.get(p) === false && dir !== null && onRealFolders(top, p),
  );
  const bases = new Map(partial.map((p) => [p, stagedText(top, p)]));
  const fixes: BlobToStage[] = [];
  for (const path of changed) {
    const v = verdict(path);
    if (v.kind === "fixed") fixes.push({ path, blob: v.blob });
    else if (v.kind === "late") {
      report.late.push(path);
      if (v.fix !== null) fixes.push({ path, blob: v.fix });
    } else if (v.kind === "doubt") {
      const fixerOutputAt = v.overEdit ? restoreEdit(top, path, v, options.keptDir) : null;
      report.doubtful.push({ path, editAt: v.editAt, fixerOutputAt, during: v.during });
    }
  }
  if (options.stageFixed) {
    const done = stageBlobs(top, options.gitDir, fixes, {
      scratch: options.scratch,
      expected: options.indexed,
      bits: options.bits,
    });
    report.staged.push(...done.staged);
    report.restaged = done.restaged;
    report.ownIndexLags = done.ownIndexLags;
  } else {
    report.unstaged.push(
      ...fixes.filter((f) => verdict(f.path).kind === "fixed").map((f) => f.path),
    );
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
    // nothing there (deleted meanwhile): the put-back brings the working copy back
    if (moveFile(join(top, path), keptAt)) report.conflicts.push({ path, keptAt });
  }
  return report;
}

/**
 * A fixer ran over a person's edit: the edit goes back in the working tree and the fixer's
 * output to `<kept>/fixer-output/<path>`, which is returned; null when they could not move.
 */
function restoreEdit(
  top: string,
  path: string,
  v: Extract<WatchVerdict, { kind: "doubt" }>,
  keptDir: string,
): string | null {
  if (v.editAt === null) return null;
  const at = join(keptDir, "fixer-output", path);
  try {
    moveFile(join(top, path), at);
    return moveFile(v.editAt, join(top, path)) ? at : null;
  } catch {
    return null;
  }
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
