import { readFileSync } from "node:fs";

/**
 * When a process started, in clock ticks since boot (Linux: /proc/<pid>/stat), or null where
 * /proc does not say. Stored beside a pid in a state file, it tells a process cpilot started
 * from another that got the same pid later, or one the file merely names.
 */
export function processStartTime(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8"); // procfs: size 0, read to the end
  } catch {
    return null;
  }
  // the command name (field 2) may hold spaces and parentheses: count from the last ")"
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[19]);
  return Number.isFinite(ticks) ? ticks : null;
}

let ownStart: number | null | undefined;

/** This process's start time: read once, it never changes (every locked run records it). */
export function ownStartTime(): number | null {
  ownStart ??= processStartTime(process.pid);
  return ownStart;
}

/**
 * Is `pid` the process a state file recorded (`started`, from {@link processStartTime})?
 * Where start times cannot be read (no /proc), the pid alone has to do.
 */
export function isSameProcess(pid: number, started: unknown): boolean {
  if (ownStartTime() === null) return true;
  return typeof started === "number" && processStartTime(pid) === started;
}
