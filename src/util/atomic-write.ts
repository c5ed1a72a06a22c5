import {
  closeSync,
  fsyncSync,
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
  data: string | Uint8Array,
  options: { durable?: boolean; throughSymlink?: boolean } = {},
): void {
  if (options.throughSymlink && lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) {
    const target = physicalPath(resolve(path));
    if (target === null) throw new Error(`Cannot write "${path}": its symlinks form a loop`);
    path = target;
  }
  const tmp = join(dirname(path), `.${basename(path)}.${randomHex(6)}.tmp`);
  let mode = 0o644;
  try {
    mode = statSync(path).mode & 0o7777;
  } catch {
    // a new file keeps the default mode
  }
  const fd = openSync(tmp, "wx", mode);
  try {
    const bytes = typeof data === "string" ? Buffer.from(data) : data;
    // writeSync may write less than asked (a full disk, a file size limit): loop, and a
    // write that makes no progress throws instead of leaving a short file to be renamed.
    let offset = 0;
    while (offset < bytes.length) {
      const written = writeSync(fd, bytes, offset, bytes.length - offset);
      if (written <= 0)
        throw new Error(`short write to ${tmp}: ${offset} of ${bytes.length} bytes`);
      offset += written;
    }
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
