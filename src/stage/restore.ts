import type { Stats } from "node:fs";
import { join, lstatSync, rmdirSync, writeFileSync } from "./byte-name-fs.ts";
import { type Journal, releaseStage } from "./journal.ts";
import { moveFile, onRealFolders, rmIfThere } from "./move.ts";
import { asidesOf, moveAside, placeNew } from "./put-in-place.ts";
import { type Aside, sameAsIndex } from "./same-as-index.ts";

export interface PutBack {
  readonly restored: number;
  /** Found where a set-aside file goes back, not the index's version: moved to `keptDir`. */
  readonly kept: readonly string[];
  readonly keptDir: string;
  /** Written where a set-aside file goes back while it went back: kept at `keptAt`. */
  readonly later: readonly { readonly path: string; readonly keptAt: string }[];
}

/** Made in the stage folder as a put-back starts, before anything moves. */
export const PUTTING_BACK = "putting-back";

/** A path that is written again each time it is cleared: the work stays in the stage folder. */
const TRIES = 5;

/**
 * Put every set-aside file back byte for byte with its mode, and drop the stage folder.
 * Idempotent and safe after a crash at any point. Whatever is in a file's place is renamed
 * aside before it is judged, and the file goes back only where nothing is: what is in the
 * way and not the index's version (a callback's rewrite, a write meanwhile) is moved to
 * `kept/<time>/`, never written over.
 */
export function putBack(
  dir: string,
  journal: Journal,
  options: { top: string; keptRoot: string },
): PutBack {
  const { top } = options;
  const keptDir = join(options.keptRoot, new Date().toISOString().replace(/[:.]/g, "-"));
  const kept = new Set<string>();
  const later: { path: string; keptAt: string }[] = [];
  const there = (path: string): boolean => lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  const keepAt = (path: string, from: string): string => {
    let to = join(keptDir, path);
    for (let n = 1; there(to); n++) to = join(keptDir, `${path}.${n}`);
    moveFile(from, to);
    return to;
  };
  const keep = (path: string, from: string): void => {
    keepAt(path, from);
    kept.add(path);
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
        keep(rel, join(top, rel));
        return;
      }
    }
  };
  const saved = (path: string, deleted: boolean): string =>
    join(dir, deleted ? "deleted" : "tracked", path);
  const pending = journal.tracked.filter(({ path, deleted }) => there(saved(path, deleted)));
  // Only a put-back of this journal that was cut short leaves things aside beside the files:
  // they are looked for then, and not on every file of every commit.
  const marker = join(dir, PUTTING_BACK);
  const again = there(marker);
  if (!again) writeFileSync(marker, "");
  const leftAside = (place: string): string[] => (again ? asidesOf(place, journal.pid) : []);
  // What is in place moves aside first (with what an earlier put-back left aside), so that
  // a write from here on is not judged, and not lost.
  const asides: Aside[] = [];
  for (const { path, deleted } of pending) {
    clearWay(path);
    const place = join(top, path);
    const before = leftAside(place);
    const at = moveAside(place, journal.pid, before.length);
    if (at !== null && !deleted && sameFile(at, saved(path, false))) rmIfThere(at);
    else if (at !== null) asides.push({ path, at });
    // last moved first: the names left after a kill never have a gap
    asides.push(...before.map((a) => ({ path, at: a })));
  }
  const same = sameAsIndex(top, asides);
  for (const { path, at } of asides) {
    if (same.has(at)) rmIfThere(at);
    else keep(path, at);
  }
  let restored = 0;
  const goBack = (path: string, from: string, stat?: Stats): void => {
    const place = join(top, path);
    for (let i = 0; ; i++) {
      if (i === TRIES) throw new Error(`${path} was written again each time it was cleared`);
      // the way was cleared before git was asked: a folder may have become a link since
      clearWay(path);
      if (placeNew(from, place, stat)) {
        if (onRealFolders(top, path)) break;
        // it went out of the tree through a link swapped in just now: brought back, tried again
        moveFile(place, from);
        continue;
      }
      const at = moveAside(place, journal.pid);
      if (at !== null) later.push({ path, keptAt: keepAt(path, at) });
    }
    restored++;
  };
  for (const { path, deleted } of pending) {
    if (deleted) {
      rmIfThere(saved(path, true));
      restored++;
    } else goBack(path, saved(path, false));
  }
  for (const folder of journal.madeDirs ?? []) {
    try {
      rmdirSync(join(top, folder)); // only when empty: a callback's file in it stays
    } catch {
      // not empty, or already gone
    }
  }
  for (const path of journal.untracked) {
    const from = join(dir, "untracked", path);
    const stat = lstatSync(from, { throwIfNoEntry: false });
    if (stat === undefined) continue;
    clearWay(path);
    const place = join(top, path);
    // a callback made a file of that name meanwhile
    for (const at of leftAside(place)) keep(path, at);
    const at = moveAside(place, journal.pid, 0);
    if (at !== null && sameFile(at, from)) rmIfThere(at);
    else if (at !== null) keep(path, at);
    goBack(path, from, stat);
  }
  releaseStage(dir);
  return { restored, kept: [...kept], keptDir, later };
}

/** A put-back killed between making the file's new name and dropping its old one: the same file. */
function sameFile(a: string, b: string): boolean {
  const x = lstatSync(a, { throwIfNoEntry: false });
  const y = lstatSync(b, { throwIfNoEntry: false });
  return (
    x !== undefined && y !== undefined && !x.isDirectory() && x.dev === y.dev && x.ino === y.ino
  );
}
