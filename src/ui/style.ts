import { isTerminal, writeErr } from "../platform/stdio.ts";
/** Only on a TTY and never with NO_COLOR. */
export function colorEnabled(): boolean {
  const noColor = process.env.NO_COLOR;
  if (noColor !== undefined && noColor !== "") return false;
  if (process.env.FORCE_COLOR !== undefined && process.env.FORCE_COLOR !== "0") return true;
  return isTerminal(2);
}

const CODES = { red: 31, green: 32, yellow: 33, blue: 34, gray: 90, bold: 1, dim: 2 } as const;
export type Color = keyof typeof CODES;

export function paint(text: string, color: Color, enabled = colorEnabled()): string {
  return enabled ? `\x1b[${CODES[color]}m${text}\x1b[0m` : text;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** Always stderr, so stdout stays for protocol and --json. */
export function say(line = ""): void {
  writeErr(`${line}\n`);
}
