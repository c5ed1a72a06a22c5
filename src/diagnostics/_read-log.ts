import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** Bytes of a run's log that are parsed: its start (compilers) and its end (test summaries). */
const HEAD_BYTES = 4 * 1024 * 1024;
const TAIL_BYTES = 4 * 1024 * 1024;

/**
 * A run's log as text, whole when it is at most 8 MB, else its first and last 4 MB joined
 * at line ends (what lies between is skipped, so a 1 GB log costs 8 MB). "" when unreadable.
 */
export function readLogBounded(path: string): string {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return "";
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return "";
    if (st.size <= HEAD_BYTES + TAIL_BYTES) return readAt(fd, 0, st.size);
    const head = readAt(fd, 0, HEAD_BYTES);
    const tail = readAt(fd, st.size - TAIL_BYTES, TAIL_BYTES);
    return `${head.slice(0, head.lastIndexOf("\n") + 1)}${tail.slice(tail.indexOf("\n") + 1)}`;
  } catch {
    return "";
  } finally {
    closeSync(fd);
  }
}

function readAt(fd: number, position: number, length: number): string {
  // Unzeroed: every byte of it that is used is read from the file first.
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n <= 0) break;
    got += n;
  }
  return buf.subarray(0, got).toString("utf8");
}
