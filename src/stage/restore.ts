import { join, lstatSync, mkdirSync, rmdirSync } from "./byte-name-fs.ts";
import { type Journal, releaseStage } from "./journal.ts";
import { moveFile, rmIfThere } from "./move.ts";
import { worktreeChanges } from "./worktree-changes.ts";

/** What putting the files back did. */
export interface PutBack {
  readonly restored: number;
  /** Files found where a set-aside one goes back, not the index's version: moved to `keptDir`. */
  readonly kept: readonly string[];
  readonly keptDir: string;
}

/**
 * Put every set-aside file back where it was, byte for byte with its mode, and drop the
 * stage folder. Idempotent and safe to run after a crash at any point: an entry whose
 * file is no longer in the stage folder is already back (or never left). Before a file
 * goes back over its path, whatever is there, if it is not the index's version (a
 * callback's rewrite), is moved to `kept/<time>/` rather than lost. `noneChanged`: the
 * caller has just asked git about every set-aside tracked file (settleFixes, once the runs
 * had ended) and none differed from the index, so git is not asked again.
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
  // Every folder on the way to a file going back must be a real folder: a link (or file)
  // a callback put there would send the file, or the removal of a deleted one, out of the
  // tree. Such a thing is kept aside like any other callback write.
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

/**
 * Which of `paths` differ from the index in the working tree. When git cannot say (a lock,
 * a timeout), all of them: what is there is then kept aside rather than written over.
 */
function changedSinceIndex(top: string, paths: readonly string[]): Set<string> {
  try {
    return new Set(worktreeChanges(top, paths, "compare set-aside files with the index"));
  } catch {
    return new Set(paths);
  }
}
