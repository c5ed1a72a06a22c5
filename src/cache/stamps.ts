import { type Stats, statSync } from "node:fs";

/**
 * A file system clock may tick this coarsely (FAT's is two seconds): something changed
 * within it of a look may change again with the same times.
 */
export const SETTLED_MS = 3000;

export interface Stamp {
  /** Device, inode, size and both times: any write, rename in or out, or replacement changes it. */
  readonly text: string;
  /** The later of its modification and change times. */
  readonly newest: number;
}

/** The stamp of what `path` names (symlinks followed); null when nothing is there. */
export function stampOf(path: string): Stamp | null {
  try {
    const s = statSync(path, { throwIfNoEntry: false });
    return s === undefined ? null : stampOfStats(s);
  } catch {
    return null;
  }
}

/** The stamp of a stat already taken. */
export function stampOfStats(s: Stats): Stamp {
  return {
    text: `${s.dev}:${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}:${s.mode}`,
    newest: Math.max(s.mtimeMs, s.ctimeMs),
  };
}

/** Was a stamp with this `newest` taken too soon after its change to vouch for the content? */
export function racy(newest: number, lookedAt: number): boolean {
  return newest >= lookedAt - SETTLED_MS;
}
