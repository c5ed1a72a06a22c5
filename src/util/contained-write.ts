// Writing for an agent to the file that was checked: its folder is held as a VerifiedDir and
// the file reached by name in it. A write is a temp file (O_EXCL) renamed over the name, so a
// symlink or hard link put there is replaced, never written through.
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

export interface Target {
  readonly dir: VerifiedDir;
  readonly name: string;
  readonly path: string;
}

export function realFolder(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return physicalPath(resolve(path)) ?? resolve(path);
  }
}

export function existingFolder(path: string): string {
  let at = path;
  while (!existsSync(at) && dirname(at) !== at) at = dirname(at);
  return realFolder(at);
}

/** Open the folder of `path` below `root` (a final link inside the root is written through). Throws a {@link MovedError} outside `root`. */
export function openTarget(root: string, path: string, options: { create?: boolean } = {}): Target {
  const real = physicalPath(resolve(path));
  if (real === null) throw new MovedError(`${path} goes through a symlink loop`);
  return openTargetAt(root, real, options);
}

/** For a path already resolved: a symlink put there since is replaced by a write, not followed. */
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

/** Readers see the old or the new content; an existing file's mode is kept. */
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

/** A folder is refused. */
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

/** Not following a symlink there (one swapped in after the check is not read). */
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

export function landsInside(root: string, path: string): boolean {
  const real = physicalPath(resolve(path));
  return real !== null && isInside(realFolder(root), real);
}
