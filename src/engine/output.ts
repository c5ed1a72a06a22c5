import { closeSync, openSync, writeSync } from "node:fs";

/** Lines kept in memory per run; the log file has everything. */
export const TAIL_LINES = 200;
/** Longest line kept in the tail; longer ones are cut with a marker. */
const MAX_LINE = 2000;

/**
 * Sink for a run's output: every byte goes to the log file, the last lines stay in a
 * bounded ring so a 1 GB output costs a few hundred kB of memory.
 */
export class RunOutput {
  private readonly fd: number;
  private readonly ring: string[] = [];
  private partial = "";
  private closed = false;

  /**
   * @param onLine called with each whole line as it arrives (cut like the tail), and with
   * an unfinished last line at close; process hooks listen here. Absent: no extra work.
   */
  constructor(
    logPath: string,
    private readonly onLine?: (line: string) => void,
  ) {
    this.fd = openSync(logPath, "a");
  }

  /** Append a chunk of raw output. */
  write(chunk: Uint8Array | string): void {
    if (this.closed) return;
    const buf = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    writeSync(this.fd, buf);
    const text = this.partial + Buffer.from(buf).toString("utf8");
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
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    const kept = line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)} … [line cut]` : line;
    this.ring.push(kept);
    if (this.ring.length > TAIL_LINES) this.ring.shift();
    this.onLine?.(kept);
  }

  /** The last `n` lines, trailing blank lines dropped. */
  tail(n = TAIL_LINES): string[] {
    const lines = this.partial === "" ? [...this.ring] : [...this.ring, this.partial];
    while (lines.length > 0 && lines[lines.length - 1]?.trim() === "") lines.pop();
    return lines.slice(-n);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
    if (this.partial !== "") this.onLine?.(this.partial);
  }
}
