/** Start an agent CLI and collect its output (async: the fake model answers from this process). */
import { spawn } from "node:child_process";
import { isolate } from "./netns.ts";

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run `argv`; with `offlineTo` (the fake model's URL) inside a network namespace that
 * reaches only the fake's port (netns.ts), where this machine allows one.
 */
export async function runCli(
  argv: readonly string[],
  options: RunOptions & { offlineTo?: string },
): Promise<CliRun> {
  const port = options.offlineTo === undefined ? null : Number(new URL(options.offlineTo).port);
  const isolation = port === null ? null : await isolate(argv, port);
  try {
    return await spawnAndWait(isolation?.argv ?? argv, options);
  } finally {
    isolation?.close();
  }
}

interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  /** Killed after this long (150 s unless told). */
  timeoutMs?: number;
  /** Written to its stdin (else stdin is closed at once). */
  input?: string;
}

/** Run `argv` as a child process, its output collected, without blocking the test process. */
export function spawnAndWait(argv: readonly string[], options: RunOptions): Promise<CliRun> {
  const [cmd, ...args] = argv as [string, ...string[]];
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: options.cwd,
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      env: options.env,
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (d: string) => {
      stdout += d;
    });
    child.stderr?.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 150_000);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}
