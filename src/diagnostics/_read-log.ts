import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { bun } from "../platform/bun.ts";

/** The bytes of a run's log that are parsed: its start (compilers) and its end (test summaries). */
export interface LogBounds {
  readonly head: number;
  readonly tail: number;
}

export const WHOLE_LOG: LogBounds = { head: 4 * 1024 * 1024, tail: 4 * 1024 * 1024 };

/** A hook call reads a dense output's first part and a test runner's summary at the end: all of a large log would slow every call. */
export const HOOK_LOG: LogBounds = { head: 256 * 1024, tail: 64 * 1024 };

export interface LogText {
  readonly text: string;
  readonly skipped: boolean;
}

const UNREADABLE: LogText = { text: "", skipped: false };

/** A run's log, whole when it fits `bounds`, else its head and tail joined at line ends (the gap is said). "" when unreadable. */
export function readLogBounded(path: string, bounds: LogBounds = WHOLE_LOG): LogText {
  const fd = openLog(path);
  if (fd === null) return UNREADABLE;
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return UNREADABLE;
    return st.size <= bounds.head + bounds.tail
      ? { text: readAt(fd, 0, st.size), skipped: false }
      : headAndTail(fd, st.size, bounds);
  } catch {
    return UNREADABLE;
  } finally {
    closeSync(fd);
  }
}

/** {@link readLogBounded}; on Bun decoded natively, leaving the garbage collector less to do. */
export async function readLog(path: string, bounds: LogBounds = WHOLE_LOG): Promise<LogText> {
  if (bun === undefined) return readLogBounded(path, bounds);
  const fd = openLog(path);
  if (fd === null) return UNREADABLE;
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size === 0) return UNREADABLE;
    if (st.size > bounds.head + bounds.tail) return headAndTail(fd, st.size, bounds);
    // Bun's text() drops a byte order mark that Buffer's decoding keeps: put it back.
    const bom = readAt(fd, 0, 3) === "\uFEFF";
    const text = await bun.file(fd).slice(0, st.size).text();
    return { text: bom ? `\uFEFF${text}` : text, skipped: false };
  } catch {
    return UNREADABLE;
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

function headAndTail(fd: number, size: number, bounds: LogBounds): LogText {
  const head = readAt(fd, 0, bounds.head);
  const tail = readAt(fd, size - bounds.tail, bounds.tail);
  return {
    text: `${head.slice(0, head.lastIndexOf("\n") + 1)}${tail.slice(tail.indexOf("\n") + 1)}`,
    skipped: true,
  };
}

function readAt(fd: number, position: number, length: number): string {
  // Unzeroed: every byte used is read from the file first.
  const buf = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = readSync(fd, buf, got, length - got, position + got);
    if (n <= 0) break;
    got += n;
  }
  return buf.subarray(0, got).toString("utf8");
}
