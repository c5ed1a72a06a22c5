// Writing, deleting and reading a file for an agent so that the file touched is the one that
// was checked: its folder is opened as a VerifiedDir (no symlink followed on the way down
// from the root) and the file is reached by name in that folder. A write is a temp file
// created there (O_EXCL: a planted name is not followed) renamed over the name, so a
// symlink or a hard link put at the name is replaced, never written through.
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { randomHex } from "../platform/digest.ts";
import { isInside, physicalPath } from "./contained-path.ts";
import { below, MovedError, openVerifiedDir, type VerifiedDir } from "./verified-dir.ts";

export { MovedError, openVerifiedDir, type VerifiedDir } from "./verified-dir.ts";

/** A file's folder, held and checked, and its name there. */
export interface Target {
  readonly dir: VerifiedDir;
  readonly name: string;
  /** Its real path when checked. */
  readonly path: string;
}

/** The real path of an existing folder (the root), else the path as the kernel would take it. */
export function realFolder(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return physicalPath(resolve(path)) ?? resolve(path);
  }
}

/** The nearest folder at or above `path` (absolute) that exists, as a real path. */
export function existingFolder(path: string): string {
  let at = path;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return realFolder(at);
}

/**
 * Open the folder of `path` (absolute; symlinks followed as the kernel will, a final one
 * too: a link inside the root is written through to its target) below `root`, creating
 * missing folders with `create`. Throws a {@link MovedError} when it is not inside `root`.
 */
export function openTarget(root: string, path: string, options: { create?: boolean } = {}): Target {
  const real = physicalPath(resolve(path));
  if (real === null) throw new MovedError(`${path} goes through a symlink loop`);
  return openTargetAt(root, real, options);
}

/**
 * Open the folder of `real` (a path already resolved, e.g. when it was checked) below
 * `root`, its name taken as it is: a symlink put there since is replaced by a write, not
 * followed. Throws a {@link MovedError} when it is not inside `root`.
 */
export function openTargetAt(
  root: string,
  real: string,
  options: { create?: boolean } = {},
): Target {
  const realRoot = realFolder(root);
  const rel = below(realRoot, dirname(real));
  if (rel === null || real === realRoot) {
    throw new MovedError(`${real} is outside ${realRoot}`);
  }
  const dir = openVerifiedDir(realRoot, rel, options);
  return { dir, name: basename(real), path: real };
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) {
    const n = writeSync(fd, bytes, offset, bytes.length - offset);
    if (n <= 0) throw new Error(`short write: ${offset} of ${bytes.length} bytes`);
    offset += n;
  }
}

/**
 * Replace `name` in `dir` with `data` atomically (readers see the old or the new content).
 * Keeps an existing file's mode.
 */
export function writeFileIn(
  dir: VerifiedDir,
  name: string,
  data: string | Uint8Array,
  options: { durable?: boolean } = {},
): void {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  let mode = 0o644;
  try {
    const st = lstatSync(dir.at(name));
    if (st.isFile()) mode = st.mode & 0o7777;
  } catch {
    // a new file keeps the default mode
  }
  const tmp = `.${name.slice(0, 200)}.${randomHex(6)}.tmp`;
  const fd = openSync(dir.at(tmp), "wx", mode);
  try {
    writeAll(fd, bytes);
    if (options.durable !== false) fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkSync(dir.at(tmp));
    throw err;
  }
  closeSync(fd);
  try {
    dir.recheck();
    renameSync(dir.at(tmp), dir.at(name));
  } catch (err) {
    try {
      unlinkSync(dir.at(tmp));
    } catch {
      // gone with its folder
    }
    throw err;
  }
}

/** Remove the file (or symlink) `name` in `dir`; a folder is refused. */
export function removeFileIn(dir: VerifiedDir, name: string): void {
  if (lstatSync(dir.at(name)).isDirectory()) {
    throw Object.assign(new Error(`${name} is a directory`), { code: "EISDIR" });
  }
  dir.recheck();
  unlinkSync(dir.at(name));
}

export type ReadIn =
  | { kind: "ok"; bytes: Buffer }
  | { kind: "missing" }
  | { kind: "directory" }
  | { kind: "not-regular" }
  | { kind: "too-big"; size: number }
  | { kind: "error"; message: string };

/**
 * Read the regular file `name` in `dir`, not following a symlink there (a link swapped in
 * after the check is not read), never more than `maxBytes` in memory.
 */
export function readFileIn(dir: VerifiedDir, name: string, maxBytes: number): ReadIn {
  let fd: number;
  try {
    dir.recheck();
    fd = openSync(dir.at(name), constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { kind: "missing" };
    if (code === "ELOOP") return { kind: "not-regular" };
    return { kind: "error", message: (err as Error).message };
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) return { kind: "directory" };
    if (!st.isFile()) return { kind: "not-regular" };
    if (st.size > maxBytes) return { kind: "too-big", size: st.size };
    const buf = Buffer.alloc(st.size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n <= 0) break;
      got += n;
    }
    return { kind: "ok", bytes: buf.subarray(0, got) };
  } catch (err) {
    return { kind: "error", message: (err as Error).message };
  } finally {
    closeSync(fd);
  }
}

/** Write `data` to `path`, which must stay inside `root` while it is written (see openTarget). */
export function writeContained(
  root: string,
  path: string,
  data: string | Uint8Array,
  options: { durable?: boolean } = {},
): void {
  const target = openTarget(root, path, { create: true });
  try {
    writeFileIn(target.dir, target.name, data, options);
  } finally {
    target.dir.close();
  }
}

/** Is `path` (absolute) inside `root` once symlinks are followed? */
export function landsInside(root: string, path: string): boolean {
  const real = physicalPath(resolve(path));
  return real !== null && isInside(realFolder(root), real);
}
