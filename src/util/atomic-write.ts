import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  openSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { randomHex } from "../platform/digest.ts";
import { physicalPath } from "./contained-path.ts";

/**
 * Write a file so that readers see the old content or the new one, never half of it:
 * a temp file beside the target, fsync (unless `durable: false`), rename. Keeps the
 * target's mode when it exists. A symlink at `path` is replaced, unless `throughSymlink`:
 * then the file it leads to is written and the link stays (a user's settings file kept
 * in a dotfiles repository). State files keep the default, so a planted link cannot
 * point their writes at another file.
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array | readonly Uint8Array[],
  options: { durable?: boolean; throughSymlink?: boolean } = {},
): void {
  if (options.throughSymlink && lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) {
    const target = physicalPath(resolve(path));
    if (target === null) throw new Error(`Cannot write "${path}": its symlinks form a loop`);
    path = target;
  }
  const tmp = tempBeside(path);
  let mode = 0o644;
  try {
    mode = statSync(path).mode & 0o7777;
  } catch {
    // a new file keeps the default mode
  }
  const fd = openSync(tmp, "wx", mode);
  try {
    writeAll(fd, tmp, data);
    // Bookkeeping (run records, locks) skips the fsync: a crash may lose it, never tear it.
    if (options.durable !== false) fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(tmp);
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (err) {
    unlinkSync(tmp);
    throw err;
  }
}

/**
 * writeSync may write less than asked (a full disk, a file size limit): loop, and a write
 * that makes no progress throws instead of leaving a short file to be renamed. Pieces are
 * written one after the other (no joined copy of them is made).
 */
function writeAll(
  fd: number,
  path: string,
  data: string | Uint8Array | readonly Uint8Array[],
): void {
  const pieces =
    typeof data === "string" ? [Buffer.from(data)] : data instanceof Uint8Array ? [data] : data;
  for (const bytes of pieces) {
    let offset = 0;
    while (offset < bytes.length) {
      const written = writeSync(fd, bytes, offset, bytes.length - offset);
      if (written <= 0)
        throw new Error(`short write to ${path}: ${offset} of ${bytes.length} bytes`);
      offset += written;
    }
  }
}

/** A temp name beside `path`, for a file that is renamed into place when complete. */
function tempBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomHex(6)}.tmp`);
}

/**
 * {@link writeFileAtomic} (no fsync) that reuses the file at `donor` instead of creating
 * one: it moves beside `path` (gone from where it was), is rewritten there and renamed
 * into place, so readers of either name never see half a file. Creating a file is the
 * dearest step of writing a small one, and on some disks it costs a millisecond (a run's
 * "running" record becomes its finished record this way). False when the donor cannot be
 * reused (missing, not a regular file, a symlink, linked from elsewhere, on another file
 * system): then nothing was written, the donor is gone, and the caller writes anew.
 */
export function writeFileReusing(path: string, data: string, donor: string): boolean {
  const tmp = tempBeside(path);
  try {
    renameSync(donor, tmp);
  } catch {
    return false;
  }
  let fd: number | undefined;
  try {
    fd = openSync(tmp, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    // another name for the same file would see the rewrite: only a file nothing else names
    if (!st.isFile() || st.nlink !== 1) throw new Error(`${donor} cannot be reused`);
    ftruncateSync(fd, 0);
    writeAll(fd, tmp, data);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, path);
    return true;
  } catch {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    return false;
  }
}

/**
 * Make `path` another name of the finished file `existing`, in one step (a link beside
 * it, renamed into place): a copy without creating a file. False when the file system
 * cannot link, or `existing` is gone; the caller writes the file instead.
 */
export function linkFileAtomic(existing: string, path: string): boolean {
  const tmp = tempBeside(path);
  try {
    linkSync(existing, tmp);
  } catch {
    return false;
  }
  try {
    renameSync(tmp, path);
    return true;
  } catch {
    try {
      unlinkSync(tmp);
    } catch {
      // already gone
    }
    return false;
  }
}
