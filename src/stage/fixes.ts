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

export interface Doubtful {
  readonly path: string;
  readonly editAt: string | null;
  readonly fixerOutputAt: string | null;
  readonly during: string | null;
}

export interface FixReport {
  readonly staged: readonly string[];
  /** Partially staged files whose unstaged changes were merged back on top of the fix. */
  readonly merged: readonly string[];
  /** Unstaged changes clash with what is there: that is kept aside. */
  readonly conflicts: readonly { readonly path: string; readonly keptAt: string }[];
  /** Fixes staged in a partial commit's index that git's own index could not take: committed fixed, shown as not staged. */
  readonly ownIndexLags: readonly string[];
  readonly unstaged: readonly string[];
  /** Edited after every run over them had ended: the commit records what the runs read, the edit stays unstaged. */
  readonly late: readonly string[];
  /** Changed while no fixer of them ran: what the runs read is not known, so nothing is staged and the check fails. */
  readonly doubtful: readonly Doubtful[];
  /** Staged again by someone else while the check ran: left as they staged it, the check fails. */
  readonly restaged: readonly string[];
}

/**
 * Stage what the fixers made of each staged file, as the watch read it (never what is on
 * disk by now), and merge set-aside unstaged changes back on top. On a clash or a binary the
 * unstaged version goes back and what was there is kept in `keptDir`: nothing is lost, and
 * the check fails. An edit made meanwhile is never staged.
 */
export function settleFixes(options: {
  top: string;
  gitDir: string;
  dir: string | null;
  journal: Journal | null;
  staged: ReadonlySet<string>;
  verdicts: ReadonlyMap<string, WatchVerdict>;
  indexed: ReadonlyMap<string, string>;
  bits: ReadonlyMap<string, IndexBits>;
  stageFixed: boolean;
  keptDir: string;
  scratch: string;
  ignore: (path: string) => boolean;
}): FixReport {
  const { top, dir, journal } = options;
  const verdict = (p: string): WatchVerdict => options.verdicts.get(p) ?? { kind: "same" };
  const changed = [...options.staged].filter(
    (p) => !options.ignore(p) && verdict(p).kind !== "same",
  );
  const report = {
    staged: [] as string[],
    merged: [] as string[],
    conflicts: [] as { path: string; keptAt: string }[],
    unstaged: [] as string[],
    late: [] as string[],
    doubtful: [] as Doubtful[],
    restaged: [] as readonly string[],
    ownIndexLags: [] as readonly string[],
  };
  if (changed.length === 0) return report;
  const hidden = new Map((journal?.tracked ?? []).map((c) => [c.path, c.deleted]));
  // Partially staged: the unstaged changes go back on top, the staged text as base. A file
  // whose folder became a link is left to the put-back: merging here would reach through it.
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

/** The edit goes back in the working tree, the fixer's output aside; null when they could not move. */
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

function stagedText(top: string, path: string): Uint8Array | null {
  const args = ["cat-file", "--filters"];
  const r = hasEscapedBytes(path)
    ? gitWithNames(top, args, [`:${path}`], runGitBytesWithList)
    : runGitBytes(top, [...args, `:${path}`]);
  return r.status === 0 ? r.stdout : null;
}

/** Merge the set-aside working copy with the fix, the staged text as base. */
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
  // git counts changes on neighbouring lines as a clash: try placing each by the base's line
  // numbers. 255 (a binary file, an error) stays a conflict.
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
