// One timed call of a command: wall time, CPU time (user + sys of the command and every
// process it waited for) and peak RSS. Neither Bun nor Node reports a child's rusage, so the
// call goes through two wrappers that do: bash's `time` keyword (CPU to the
// millisecond, the wall clock read around it to the microsecond; GNU time's own %e %U %S stop at 10 ms, too coarse for a 5 ms call), inside
// GNU time (/usr/bin/time, Debian package `time`) for the peak RSS (%M, the largest of the
// process tree it waited for: the wrapping bash's few MB never exceed a tool's own). Both
// wrappers cost every tool alike and neither is inside the measured interval.
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const GNU_TIME = "/usr/bin/time";

export interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly rssKb: number;
}

export interface Command {
  readonly cmd: string;
  readonly args: readonly string[];
  readonly env?: Record<string, string>;
  /** A file whose content is the command's stdin (a file, not a pipe: see measureOnce). */
  readonly stdinFile?: string;
  /** Fail the run when the command prints anything on stdout (a hook call that answers). */
  readonly silentStdout?: boolean;
}

// fd 4 keeps the command's stderr; the `time` report (CPU) alone goes to the file "$1",
// then the wall clock's start and end in microseconds (EPOCHREALTIME, bash 5).
const WRAPPER = [
  'TIMEFORMAT="%3U %3S"; t=$1; shift; exec 4>&2',
  's=$EPOCHREALTIME; { time "$@" 2>&4; } 2>"$t"; rc=$?; e=$EPOCHREALTIME',
  'echo "$s $e" >>"$t"; exit $rc',
].join("\n");

/** Stop early, with the fix, when GNU time is missing. */
export function requireGnuTime(): void {
  if (existsSync(GNU_TIME)) return;
  process.stderr.write(
    `Cannot measure peak memory "${GNU_TIME}": it is not installed\nhint: apt-get install -y time (Debian, Ubuntu) or your system's GNU time package\n`,
  );
  process.exit(2);
}

/**
 * Run `c` once in `cwd` and measure it. Stdin comes from a file: Bun's spawnSync closes an
 * `input` pipe late (about 4 ms here), which would be charged to the command; an agent
 * writes its payload and closes at once.
 */
export function measureOnce(c: Command, cwd: string, scratch: string, label: string): Sample {
  const times = join(scratch, "times");
  const rss = join(scratch, "rss");
  const stdin = openSync(c.stdinFile ?? "/dev/null", "r");
  try {
    const r = spawnSync(
      GNU_TIME,
      ["-f", "%M", "-o", rss, "bash", "-c", WRAPPER, "_", times, c.cmd, ...c.args],
      {
        cwd,
        stdio: [stdin, "pipe", "pipe"],
        env: { ...process.env, NO_COLOR: "1", ...c.env },
        maxBuffer: 1 << 26,
      },
    );
    if (r.status !== 0) {
      throw new Error(
        `Cannot measure "${label}": exited ${r.status}: ${String(r.stderr).slice(0, 800)}`,
      );
    }
    if (c.silentStdout && String(r.stdout).trim() !== "") {
      throw new Error(`Cannot measure "${label}": it answered ${String(r.stdout).slice(0, 300)}`);
    }
    // A locale may write the decimal point as a comma.
    const [user = 0, sys = 0, start = 0, end = 0] = readFileSync(times, "utf8")
      .replaceAll(",", ".")
      .trim()
      .split(/\s+/)
      .map(Number);
    const wall = end - start;
    const rssLines = readFileSync(rss, "utf8").trim().split("\n");
    return { wallMs: wall * 1000, cpuMs: (user + sys) * 1000, rssKb: Number(rssLines.at(-1)) };
  } finally {
    closeSync(stdin);
    rmSync(times, { force: true });
    rmSync(rss, { force: true });
  }
}

export const CLOCK_TICKS =
  Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout) || 100;

/** CPU time (ms) of this process's waited-for children so far, from /proc (0 elsewhere). */
export function childrenCpuMs(): number {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[13], fields[14]: cutime, cstime (fields 16, 17 of proc(5)), in clock ticks
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/** An open descriptor on `input` kept as a file in `dir`, written once per name: a hook call reads its payload as Claude Code sends it. */
export function stdinFile(
  dir: string,
  files: Map<string, string>,
  name: string,
  input: string,
): number {
  let path = files.get(name);
  if (path === undefined) {
    path = join(dir, `input-${files.size}.json`);
    writeFileSync(path, input);
    files.set(name, path);
  }
  return openSync(path, "r");
}
