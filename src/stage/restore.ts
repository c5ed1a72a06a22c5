import { join, lstatSync, mkdirSync, rmdirSync } from "./byte-name-fs.ts";
import { type Journal, releaseStage } from "./journal.ts";
import { moveFile, rmIfThere } from "./move.ts";
import { worktreeChanges } from "./worktree-changes.ts";

export interface PutBack {
  readonly restored: number;
  /** Found where a set-aside file goes back, not the index's version: moved to `keptDir`. */
  readonly kept: readonly string[];
  readonly keptDir: string;
}

/**
 * Put every set-aside file back byte for byte with its mode, and drop the stage folder.
 * Idempotent and safe after a crash at any point. What is in the way and not the index's
 * version (a callback's rewrite) is moved to `kept/<time>/`, never lost.
 */
export function putBack(
  dir: string,
  journal: Journal,
  options: { top: string; keptRoot: string; noneChanged?: boolean },
): PutBack {
  const { top } = options;
  const keptDir = join(options.keptRoot, new Date().toISOString().replace(/[:.]/g, "-"));
  const kept: string[] = [];
  const there = (path: string): boolean => lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  const keep = (path: string): void => {
    const from = join(top, path);
    if (!there(from)) return;
    mkdirSync(keptDir, { recursive: true });
    moveFile(from, join(keptDir, path));
    kept.push(path);
  };
  // Every folder on the way back must be a real folder: a link a callback put there would
  // send the file out of the tree. Such a thing is kept aside like any other write.
  const clearWay = (path: string): void => {
    const parts = path.split("/");
    for (let i = 1; i < parts.length; i++) {
      const rel = parts.slice(0, i).join("/");
      const stat = lstatSync(join(top, rel), { throwIfNoEntry: false });
      if (stat === undefined) return;
      if (!stat.isDirectory()) {
        keep(rel);
        return;
      }
    }
  };
  const pending = journal.tracked.filter(({ path, deleted }) =>
    there(join(dir, deleted ? "deleted" : "tracked", path)),
  );
  const changed = options.noneChanged
    ? new Set<string>()
    : changedSinceIndex(
        top,
        pending.map((c) => c.path),
      );
  let restored = 0;
  for (const { path, deleted } of pending) {
    clearWay(path);
    if (changed.has(path)) keep(path);
    if (deleted) {
      rmIfThere(join(top, path));
      rmIfThere(join(dir, "deleted", path));
    } else moveFile(join(dir, "tracked", path), join(top, path));
    restored++;
  }
  for (const folder of journal.madeDirs ?? []) {
    try {
      rmdirSync(join(top, folder)); // only when empty: a callback's file in it stays
    } catch {
      // not empty, or already gone
    }
  }
  for (const path of journal.untracked) {
    const saved = join(dir, "untracked", path);
    if (!there(saved)) continue;
    clearWay(path);
    keep(path); // a callback made a file of that name meanwhile
    moveFile(saved, join(top, path));
    restored++;
  }
  releaseStage(dir);
  return { restored, kept, keptDir };
}

/** When git cannot say (a lock, a timeout), all of them: what is there is kept aside rather than written over. */
function changedSinceIndex(top: string, paths: readonly string[]): Set<string> {
  try {
    return new Set(worktreeChanges(top, paths, "compare set-aside files with the index"));
  } catch {
    return new Set(paths);
  }
}
