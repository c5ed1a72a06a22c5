// Reading and appending cpilot's own state files under `.cpilot/`. Anyone with a shell in
// the project, or a commit in a cloned repository, can put a symlink or a FIFO there: a
// state file is never followed through a symlink (an append could land in ~/.bashrc),
// never waited on (a FIFO would block the call for good) and never read past a size cap.
import { closeSync, constants, fstatSync, openSync, readSync, writeSync } from "node:fs";

/**
 * The file's text (its last `maxBytes` when longer), or null when it is missing, not a
 * regular file, a symlink, or unreadable.
 */
export function readStateFile(path: string, maxBytes = 4 * 1024 * 1024): string | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    const st = fstatSync(fd);
    if (!st.isFile()) return null;
    const start = Math.max(0, st.size - maxBytes);
    const buf = Buffer.alloc(st.size - start);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, start + got);
      if (n <= 0) break;
      got += n;
    }
    return buf.subarray(0, got).toString("utf8");
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Append `text` with one write(2) on an O_APPEND descriptor (lines from concurrent processes
 * never interleave), creating the file with `mode`. Throws when `path` is a symlink or not a
 * regular file.
 */
export function appendStateFile(path: string, text: string, mode = 0o644): void {
  const fd = openSync(
    path,
    constants.O_WRONLY |
      constants.O_APPEND |
      constants.O_CREAT |
      constants.O_NONBLOCK |
      constants.O_NOFOLLOW,
    mode,
  );
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${path} is not a regular file`);
    writeSync(fd, new TextEncoder().encode(text));
  } finally {
    closeSync(fd);
  }
}
