// What cpilot cannot do the same way on every system, in words a person can act on.

/** Windows has no process groups: a run's own process is all a timeout or `stop` can end. */
export const HAS_PROCESS_GROUPS = process.platform !== "win32";

export function platformLimits(platform: NodeJS.Platform = process.platform): string[] {
  if (platform === "linux") return [];
  const limits = [
    "resync finds a callback's file changes with a stat per file: inotify is Linux only (same results, slower on big batches)",
    "no /proc: stopping a run waits out its whole grace period when only zombies are left, and a stale lock's pid cannot be told from a new process with the same pid",
  ];
  if (platform === "win32") {
    limits.unshift(
      "a string `run` needs bash on PATH (Git for Windows has one); an argv array `run` needs no shell",
      "no process groups: a timeout or `cpilot stop` ends the callback's own process, not the processes it started",
      "signals are emulated: a callback gets no SIGTERM first, it is ended at once",
    );
  }
  return limits;
}

export function startFailureHint(command: string, code: string | undefined): string {
  if (code !== "ENOENT" || command !== "bash") return "";
  return process.platform === "win32"
    ? "; a string `run` needs bash on PATH (install Git for Windows), or write `run` as an argv array"
    : "; a string `run` needs bash on PATH, or write `run` as an argv array";
}

let told = false;

export function noteSingleProcessStop(write: (text: string) => void): void {
  if (HAS_PROCESS_GROUPS || told) return;
  told = true;
  write(
    "cpilot: on Windows a timeout or stop ends the callback's own process only (no process groups); what it started may keep running\n",
  );
}
