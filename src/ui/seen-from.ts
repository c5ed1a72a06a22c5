import { statSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import type { FileChange } from "../model/batch.ts";
import type { Diagnostic } from "../model/diagnostic.ts";
import type { Outcome, Resync, RunResult } from "../model/outcome.ts";
import { findRepository } from "../util/git-dir.ts";

/** A path relative to one folder, as named from another. */
export type PathMove = (path: string) => string;

/**
 * How a path relative to `root` (the folder of the config that judged it) reads for someone
 * working in `dir`, as git names paths for a command started there; null when it reads the
 * same. A reader outside the repository that holds `root`, or in a folder that is gone, gets
 * the paths as they were: a climb out of the project would name nothing the reader could trust.
 */
export function pathMove(root: string, dir: string): PathMove | null {
  // a reader's folder that is gone (a payload's stale cwd) is no place to name paths from
  if (root === dir || !isFolder(dir)) return null;
  const top = findRepository(root, {})?.top ?? null;
  if (top === null || !within(dir, top) || !within(root, top)) return null;
  return (path) => {
    if (path === "" || isAbsolute(path)) return path;
    const moved = relative(dir, join(root, path));
    return sep === "/" ? moved : moved.replaceAll(sep, "/");
  };
}

/**
 * The top of the repository holding `root`, where code scanning and annotations resolve
 * paths; `root` itself outside a repository.
 */
export function repositoryTop(root: string): string {
  return findRepository(root, {})?.top ?? root;
}

function isFolder(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith("/") ? folder : `${folder}/`);
}

/**
 * The outcome as a reader in `dir` sees it: every path it names relative to `dir`, and its
 * batch rooted there, so `join(batch.root, path)` still finds each file. For showing only:
 * callbacks, records and cache keys keep the judged config's own paths.
 */
export function outcomeSeenFrom(outcome: Outcome, dir: string): Outcome {
  const move = pathMove(outcome.batch.root, dir);
  if (move === null) return outcome;
  const { leftOut } = outcome;
  return {
    ...outcome,
    batch: {
      ...outcome.batch,
      root: dir,
      files: outcome.batch.files.map((f) => moveFile(f, move)),
    },
    runs: outcome.runs.map((r) => movedRun(r, move)),
    resyncs: outcome.resyncs.map((r): Resync => ({ ...r, path: move(r.path) })),
    ...(leftOut
      ? { leftOut: new Map([...leftOut].map(([folder, why]) => [move(folder), why])) }
      : {}),
  };
}

/** One run's paths, judged by the config in `root`, as a reader in `dir` names them. */
export function runSeenFrom(run: RunResult, root: string, dir: string): RunResult {
  const move = pathMove(root, dir);
  return move === null ? run : movedRun(run, move);
}

function movedRun(run: RunResult, move: PathMove): RunResult {
  const { diagnostics, unreached } = run;
  return {
    ...run,
    files: run.files.map(move),
    ...(diagnostics
      ? { diagnostics: diagnostics.map((d): Diagnostic => ({ ...d, file: move(d.file) })) }
      : {}),
    ...(unreached ? { unreached: unreached.map(move) } : {}),
  };
}

function moveFile(file: FileChange, move: PathMove): FileChange {
  return { ...file, path: move(file.path) };
}
