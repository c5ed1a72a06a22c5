import { closeSync, fstatSync, openSync, readSync, statfsSync, writeSync } from "node:fs";

/** Lines kept in memory per run; the log file has everything. */
export const TAIL_LINES = 200;
/** Longest line kept in the tail; longer ones are cut with a marker. */
const MAX_LINE = 2000;
/** How far back from the end of a directly written log the tail's lines are looked for. */
const TAIL_SCAN_BYTES = 16 * 1024 * 1024;

/**
 * Sink for a run's output: every byte goes to the log file, the last lines stay in a
 * bounded ring so a 1 GB output costs a few hundred kB of memory.
 */
export class RunOutput {
  /** The log file, or -1 when it cannot be written (see `trouble`): the tail still works. */
  private fd: number;
  /** Why the log could not be opened or written, if it could not. */
  trouble: unknown = null;
  private readonly ring: string[] = [];
  private readonly decoder = new TextDecoder();
  private partial = "";
  private closed = false;
  /** The process writes the log itself: the tail comes from the file's end. */
  private direct = false;
  private finalTail: string[] | null = null;

  /**
   * @param onLine called with each whole line as it arrives (cut like the tail), and with
   * an unfinished last line at close; triggers listen here. Absent: no extra work.
   */
  constructor(
    logPath: string | null,
    private readonly onLine?: (line: string) => void,
  ) {
    // Readable too: a process writing the log directly leaves its tail to be read back.
    try {
      if (logPath === null) throw new Error("no log folder");
      this.fd = openSync(logPath, "a+");
    } catch (err) {
      this.trouble = err;
      this.fd = -1;
    }
  }

  /**
   * The log's file descriptor, for a process to write its stdout and stderr straight into
   * (no pipes, no copying through cpilot, true interleaving), or null when someone listens
   * to lines as they arrive. After this, the tail is read back from the file.
   */
  takeDirectFd(): number | null {
    if (this.onLine !== undefined || this.closed || this.fd < 0 || !roomFor(this.fd)) return null;
    this.direct = true;
    return this.fd;
  }

  /** Append a chunk of raw output. */
  write(chunk: Uint8Array | string): void {
    if (this.closed) return;
    const buf = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
    if (this.fd >= 0) {
      try {
        writeSync(this.fd, buf);
      } catch (err) {
        // a full disk: the log stops, the tail the agent gets does not
        this.trouble ??= err;
      }
    }
    if (this.direct) return;
    const text = this.partial + this.decoder.decode(buf, { stream: true });
    const parts = text.split("\n");
    this.partial = parts.pop() ?? "";
    if (this.partial.length > MAX_LINE) this.partial = this.partial.slice(-MAX_LINE);
    for (const line of parts) this.pushLine(line);
  }

  /** Append one whole line (from a TypeScript run's `log`). */
  line(text: string): void {
    this.write(`${text}\n`);
  }

  private pushLine(raw: string): void {
    const kept = cutLine(raw);
    this.ring.push(kept);
    if (this.ring.length > TAIL_LINES) this.ring.shift();
    this.onLine?.(kept);
  }

  /** The last `n` lines, trailing blank lines dropped. */
  tail(n = TAIL_LINES): string[] {
    const lines = this.direct
      ? (this.finalTail ?? this.readTail())
      : this.partial === ""
        ? [...this.ring]
        : [...this.ring, this.partial];
    while (lines.length > 0 && lines[lines.length - 1]?.trim() === "") lines.pop();
    return lines.slice(-n);
  }

  /**
   * The last lines of the log file itself (direct mode), cut as the in-memory tail cuts
   * them. Finds line ends by scanning back in blocks with the typed array's own search,
   * no further than the lines the tail keeps, and reads at most a few kB of each line, so
   * a 1 GB line costs no memory; lines of an ordinary length are read in one piece.
   */
  private readTail(): string[] {
    const size = fstatSync(this.fd).size;
    if (size === 0) return [];
    const newlines: number[] = []; // offsets of "\n", last first
    const block = new Uint8Array(64 * 1024);
    let pos = size;
    let enough = false;
    while (!enough && pos > 0 && size - pos < TAIL_SCAN_BYTES) {
      const len = Math.min(block.length, pos);
      pos -= len;
      const got = block.subarray(0, this.readAt(block, len, pos));
      for (let i = got.length - 1; i >= 0; i--) {
        i = got.lastIndexOf(10, i);
        if (i < 0) break;
        newlines.push(pos + i);
        // One more line end than the tail keeps lines: each kept line has its start.
        enough = newlines.length > TAIL_LINES;
        if (enough) break;
      }
    }
    const lines: string[] = [];
    // An unfinished last line keeps its end, as the in-memory tail does.
    const last = newlines[0];
    if (last === undefined || last < size - 1) {
      const start = last === undefined ? pos : last + 1;
      const take = Math.min(size - start, MAX_LINE * 4);
      lines.push(this.decodeAt(size - take, take).slice(-MAX_LINE));
    }
    // The first line end found starts a whole line only when the scan reached the start.
    const whole = pos === 0 && !enough ? newlines.length : newlines.length - 1;
    const startOf = (i: number) => (i + 1 < newlines.length ? (newlines[i + 1] as number) + 1 : 0);
    const cut = (text: string, bytes: number) =>
      bytes > MAX_LINE * 4 ? `${text.slice(0, MAX_LINE)} … [line cut]` : cutLine(text);
    if (whole > 0) {
      const from = startOf(whole - 1);
      const to = newlines[0] as number;
      const parts =
        to - from <= TAIL_LINES * MAX_LINE * 4 ? this.decodeAt(from, to - from).split("\n") : null;
      for (let i = 0; i < whole; i++) {
        const start = startOf(i);
        const end = newlines[i] as number;
        const text =
          parts?.length === whole
            ? (parts[whole - 1 - i] as string)
            : this.decodeAt(start, Math.min(end - start, MAX_LINE * 4));
        lines.push(cut(text, end - start));
      }
    }
    return lines.slice(0, TAIL_LINES).reverse();
  }

  private readAt(buf: Uint8Array, length: number, position: number): number {
    let read = 0;
    while (read < length) {
      const n = readSync(this.fd, buf, read, length - read, position + read);
      if (n === 0) break;
      read += n;
    }
    return read;
  }

  private decodeAt(position: number, length: number): string {
    const buf = new Uint8Array(length);
    return new TextDecoder().decode(buf.subarray(0, this.readAt(buf, length, position)));
  }

  close(): void {
    if (this.closed) return;
    if (this.direct) this.finalTail = this.readTail();
    this.closed = true;
    if (this.fd >= 0) closeSync(this.fd);
    if (this.partial !== "") this.onLine?.(this.partial);
  }
}

/** Below this much free space, output goes through cpilot, so the tail survives a full disk. */
const MIN_FREE_BYTES = 8 * 1024 * 1024;

/** Is there room on the log's file system for a process to write its output straight in? */
function roomFor(fd: number): boolean {
  try {
    const fs = statfsSync(`/proc/self/fd/${fd}`);
    return fs.bavail * fs.bsize >= MIN_FREE_BYTES;
  } catch {
    return true; // cannot tell (no /proc, no statfs): as before
  }
}

/** A line as the tail keeps it: no carriage return, cut past MAX_LINE. */
function cutLine(raw: string): string {
  const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)} … [line cut]` : line;
}
