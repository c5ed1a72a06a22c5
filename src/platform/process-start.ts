import { readFileSync } from "node:fs";

/** In clock ticks since boot (/proc/<pid>/stat), or null: beside a pid, it tells a process from a later one with the same pid. */
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

export function ownStartTime(): number | null {
  ownStart ??= processStartTime(process.pid);
  return ownStart;
}

/** Where start times cannot be read, the pid alone has to do. */
export function isSameProcess(pid: number, started: unknown): boolean {
  if (ownStartTime() === null) return true;
  return typeof started === "number" && processStartTime(pid) === started;
}
