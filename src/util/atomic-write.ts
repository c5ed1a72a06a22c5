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
 * Readers see the old content or the new one: a temp file, fsync (unless `durable: false`),
 * rename. A symlink at `path` is replaced, unless `throughSymlink` (a user's dotfiles): state
 * files never write through a planted link.
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
    // Bookkeeping skips the fsync: a crash may lose it, never tear it.
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

/** writeSync may write less than asked: a write that makes no progress throws rather than leave a short file. */
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

function tempBeside(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomHex(6)}.tmp`);
}

/**
 * {@link writeFileAtomic} (no fsync) reusing the file at `donor`, since creating a file is
 * the dearest step of writing a small one. False when it cannot be reused: nothing was
 * written, the donor is gone, the caller writes anew.
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

/** `path` as another name of `existing`, linked beside and renamed into place; false when the file system cannot link. */
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
