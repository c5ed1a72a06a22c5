import { closeSync, fstatSync, openSync, readSync, statfsSync, writeSync } from "node:fs";

export const TAIL_LINES = 200;
/** Longest line kept in the tail; longer ones are cut with a marker. */
const MAX_LINE = 2000;
const TAIL_SCAN_BYTES = 16 * 1024 * 1024;

/** Every byte goes to the log file; the last lines stay in a bounded ring, so a 1 GB output costs little memory. */
export class RunOutput {
  /** -1 when it cannot be written: the tail still works. */
  private fd: number;
  trouble: unknown = null;
  private readonly ring: string[] = [];
  private readonly decoder = new TextDecoder();
  private partial = "";
  private closed = false;
  private direct = false;
  private finalTail: string[] | null = null;

  /** @param onLine each whole line as it arrives (cut like the tail), the unfinished last one at close; triggers listen here. */
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

  /** For a process to write straight into (no pipes, true interleaving), or null when someone listens to lines. */
  takeDirectFd(): number | null {
    if (this.onLine !== undefined || this.closed || this.fd < 0 || !roomFor(this.fd)) return null;
    this.direct = true;
    return this.fd;
  }

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

  line(text: string): void {
    this.write(`${text}\n`);
  }

  private pushLine(raw: string): void {
    const kept = cutLine(raw);
    this.ring.push(kept);
    if (this.ring.length > TAIL_LINES) this.ring.shift();
    this.onLine?.(kept);
  }

  tail(n = TAIL_LINES): string[] {
    const lines = this.direct
      ? (this.finalTail ?? this.readTail())
      : this.partial === ""
        ? [...this.ring]
        : [...this.ring, this.partial];
    while (lines.length > 0 && lines[lines.length - 1]?.trim() === "") lines.pop();
    return lines.slice(-n);
  }

  /** The last lines of the log file itself, scanning back in blocks, never a whole huge line in memory. */
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
        enough = newlines.length > TAIL_LINES;
        if (enough) break;
      }
    }
    const lines: string[] = [];
    const last = newlines[0];
    if (last === undefined || last < size - 1) {
      const start = last === undefined ? pos : last + 1;
      const take = Math.min(size - start, MAX_LINE * 4);
      lines.push(this.decodeAt(size - take, take).slice(-MAX_LINE));
    }
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

/** Below this much free space output goes through cpilot, so the tail survives a full disk. */
const MIN_FREE_BYTES = 8 * 1024 * 1024;

function roomFor(fd: number): boolean {
  try {
    const fs = statfsSync(`/proc/self/fd/${fd}`);
    return fs.bavail * fs.bsize >= MIN_FREE_BYTES;
  } catch {
    return true; // cannot tell (no /proc, no statfs): as before
  }
}

function cutLine(raw: string): string {
  const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)} … [line cut]` : line;
}
