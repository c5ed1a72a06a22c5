import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { bun } from "../platform/bun.ts";

/** Bytes of a run's log that are parsed: its start (compilers) and its end (test summaries). */
const HEAD_BYTES = 4 * 1024 * 1024;
const TAIL_BYTES = 4 * 1024 * 1024;

/**
 * A run's log as text, whole when it is at most 8 MB, else its first and last 4 MB joined
 * at line ends (what lies between is skipped, so a 1 GB log costs 8 MB). "" when unreadable.
 */
export function readLogBounded(path: string): string {
  const fd = openLog(path);
  if (fd === null) return "";
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return "";
    return st.size <= HEAD_BYTES + TAIL_BYTES ? readAt(fd, 0, st.size) : headAndTail(fd, st.size);
  } catch {
    return "";
  } finally {
    closeSync(fd);
  }
}

/**
 * {@link readLogBounded}, the same text. On Bun a log read whole is decoded natively, from
 * no JavaScript buffer: a dense run's log (~0.7 MB) is that much less for the process's
 * garbage collector, which a hook call's ~8 MB of allocations would otherwise set off.
 */
export async function readLog(path: string): Promise<string> {
  if (bun === undefined) return readLogBounded(path);
  const fd = openLog(path);
  if (fd === null) return "";
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size === 0) return "";
    if (st.size > HEAD_BYTES + TAIL_BYTES) return headAndTail(fd, st.size);
    // Bun's text() drops a byte order mark that Buffer's decoding keeps: put it back.
    const bom = readAt(fd, 0, 3) === "\uFEFF";
    const text = await bun.file(fd).slice(0, st.size).text();
    return bom ? `\uFEFF${text}` : text;
  } catch {
    return "";
  } finally {
    closeSync(fd);
  }
}

function openLog(path: string): number | null {
  try {
    return openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
}

/** A log over 8 MB: its first and last 4 MB, joined at line ends. */
function headAndTail(fd: number, size: number): string {
  const head = readAt(fd, 0, HEAD_BYTES);
  const tail = readAt(fd, size - TAIL_BYTES, TAIL_BYTES);
  return `${head.slice(0, head.lastIndexOf("\n") + 1)}${tail.slice(tail.indexOf("\n") + 1)}`;
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
