// Files whose paths come from outside are read only when regular (a FIFO would block, /dev/zero
// fill memory), non-blocking, and never past a cap. Symlinks are followed.
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { sha1Hasher } from "../platform/digest.ts";

function openRegular(
  path: string,
  followSymlinks = true,
): { fd: number; size: number; ino: number } | null {
  let fd: number | undefined;
  try {
    const noFollow = followSymlinks ? 0 : constants.O_NOFOLLOW;
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | noFollow);
    const st = fstatSync(fd);
    if (st.isFile()) return { fd, size: st.size, ino: st.ino };
  } catch {
    // missing or unreadable
  }
  if (fd !== undefined) closeSync(fd);
  return null;
}

export function readRegularFile(path: string, maxBytes: number): Buffer | null {
  return readRegularWithInode(path, maxBytes)?.data ?? null;
}

export function readRegularWithInode(
  path: string,
  maxBytes: number,
): { data: Buffer; ino: number } | null {
  const file = openRegular(path);
  if (file === null) return null;
  try {
    if (file.size > maxBytes) return null;
    const buf = Buffer.alloc(file.size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(file.fd, buf, got, buf.length - got, got);
      if (n <= 0) break;
      got += n;
    }
    return { data: buf.subarray(0, got), ino: file.ino };
  } finally {
    closeSync(file.fd);
  }
}

/** In memory of their own (offset 0), so typed arrays of any width can view them; null when not a regular file. */
export function readRegularBytes(
  path: string,
  maxBytes: number,
  options: { followSymlinks?: boolean } = {},
): Uint8Array | null {
  const file = openRegular(path, options.followSymlinks ?? true);
  if (file === null) return null;
  try {
    if (file.size > maxBytes) return null;
    const buf = new Uint8Array(file.size);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(file.fd, buf, got, buf.length - got, got);
      if (n <= 0) break;
      got += n;
    }
    return got === buf.length ? buf : buf.slice(0, got);
  } catch {
    return null;
  } finally {
    closeSync(file.fd);
  }
}

export function readRegularTail(
  path: string,
  maxBytes: number,
  options: { followSymlinks?: boolean } = {},
): string | null {
  const file = openRegular(path, options.followSymlinks ?? true);
  if (file === null) return null;
  try {
    const start = Math.max(0, file.size - maxBytes);
    const buf = Buffer.alloc(file.size - start);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(file.fd, buf, got, buf.length - got, start + got);
      if (n <= 0) break;
      got += n;
    }
    return buf.subarray(0, got).toString("utf8");
  } catch {
    return null;
  } finally {
    closeSync(file.fd);
  }
}

/** Read in 1 MiB slices. */
export function hashRegularFile(path: string): string | null {
  const file = openRegular(path);
  if (file === null) return null;
  try {
    const hasher = sha1Hasher();
    const buf = Buffer.alloc(Math.min(file.size, 1024 * 1024) || 1);
    for (let pos = 0; ; ) {
      const n = readSync(file.fd, buf, 0, buf.length, pos);
      if (n <= 0) break;
      hasher.update(buf.subarray(0, n));
      pos += n;
    }
    return hasher.digest();
  } catch {
    return null;
  } finally {
    closeSync(file.fd);
  }
}
