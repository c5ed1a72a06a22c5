import { isTerminal, terminalColumns, writeErr } from "../platform/stdio.ts";
import { colorEnabled, paint } from "./style.ts";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** A live one-line status on a TTY; prints nothing elsewhere. Lines printed through `log` appear above it. */
export class Progress {
  private readonly running = new Map<string, string>();
  private done = 0;
  private total = 0;
  private frame = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly live: boolean;

  constructor() {
    this.live = process.env.CI === undefined && isTerminal(2);
  }

  setTotal(total: number): void {
    this.total = total;
  }

  start(id: string, name: string): void {
    this.running.set(id, name);
    if (this.live && this.timer === undefined) {
      this.timer = setInterval(() => this.draw(), 80);
      this.timer.unref?.();
    }
    this.draw();
  }

  end(id: string): void {
    this.running.delete(id);
    this.done++;
    this.draw();
  }

  log(line: string): void {
    if (this.live) writeErr("\r\x1b[2K");
    writeErr(`${line}\n`);
    this.draw();
  }

  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    if (this.live) writeErr("\r\x1b[2K");
  }

  private draw(): void {
    if (!this.live || this.running.size === 0) return;
    this.frame = (this.frame + 1) % FRAMES.length;
    const names = [...new Set(this.running.values())].join(", ");
    const width = terminalColumns() - 1;
    const text = `${FRAMES[this.frame]} running ${names} · ${this.done}/${this.total} done`;
    writeErr(`\r\x1b[2K${paint(text.slice(0, width), "gray", colorEnabled())}`);
  }
}
