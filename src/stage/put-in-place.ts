import type { Stats } from "node:fs";
import * as fs from "node:fs";
import { sha1Hex } from "../platform/digest.ts";
import { fsPath } from "../util/path-bytes.ts";
import {
  chmodSync,
  copyFileSync,
  dirname,
  join,
  lstatSync,
  mkdirSync,
  renameSync,
} from "./byte-name-fs.ts";
import { rmIfThere } from "./move.ts";

/**
 * The names beside `path` that what was in its place takes on the way back: `k` counts up from
 * 0 with no gaps, so whoever finds them after a kill lists them by trying `k` in turn. The
 * journal's pid tells them from another check's; a fixed length keeps a long name possible.
 */
export function asideName(path: string, owner: number, k: number): string {
  return `${asidePrefix(path, owner)}${k}`;
}

function asidePrefix(path: string, owner: number): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  return join(dirname(path), `.cpilot-aside-${owner}-${sha1Hex(base).slice(0, 12)}-`);
}

/** The asides of `path` left by an earlier put-back of the same journal, last first. */
export function asidesOf(path: string, owner: number): string[] {
  const prefix = asidePrefix(path, owner);
  const found: string[] = [];
  for (let k = 0; ; k++) {
    if (lstatSync(`${prefix}${k}`, { throwIfNoEntry: false }) === undefined) {
      return found.reverse();
    }
    found.push(`${prefix}${k}`);
  }
}

/**
 * Rename whatever is at `path` (a file, a link, a folder) to a new name beside it, in one
 * step: a write from now on lands on `path` itself, never on what is about to be judged.
 * Null when nothing is there. `taken`: how many asides of it there are, when known.
 */
export function moveAside(path: string, owner: number, taken?: number): string | null {
  // nearly always nothing: a failed rename costs more than a look
  if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return null;
  const to = asideName(path, owner, taken ?? asidesOf(path, owner).length);
  try {
    renameSync(path, to);
    return to;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

/**
 * Move `from` to `to` only while nothing is at `to`, which is never replaced: false when
 * something is (written there after it was cleared). A hard link or a new link is made in
 * one step that fails on any name already there; `from` goes only once `to` holds it whole.
 */
export function placeNew(from: string, to: string, stat: Stats = lstatSync(from)): boolean {
  const place = (): boolean =>
    stat.isSymbolicLink() ? linkAgain(from, to) : linkNew(from, to, stat.mode);
  let placed: boolean;
  try {
    placed = place();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    // its folder is gone (a callback removed it): made again, as the first try costs less
    mkdirSync(dirname(to), { recursive: true });
    placed = place();
  }
  if (placed) rmIfThere(from);
  return placed;
}

function linkAgain(from: string, to: string): boolean {
  const target = fs.readlinkSync(fsPath(from), { encoding: "buffer" });
  return made(() => fs.symlinkSync(target, fsPath(to)));
}

function linkNew(from: string, to: string, mode: number): boolean {
  try {
    return made(() => fs.linkSync(fsPath(from), fsPath(to)));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "EXDEV" && code !== "EPERM" && code !== "ENOTSUP") throw err;
  }
  // another file system (or none of hard links): a whole copy beside `to`, linked from there
  const temp = `${to}.cpilot-place-${process.pid}`;
  rmIfThere(temp);
  try {
    copyFileSync(from, temp);
    chmodSync(temp, mode & 0o7777);
    try {
      return made(() => fs.linkSync(fsPath(temp), fsPath(to)));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "EXDEV") throw err;
      // no hard links here: a copy made only where nothing is
      return made(() => fs.copyFileSync(fsPath(temp), fsPath(to), fs.constants.COPYFILE_EXCL));
    }
  } finally {
    rmIfThere(temp);
  }
}

function made(make: () => void): boolean {
  try {
    make();
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
}
