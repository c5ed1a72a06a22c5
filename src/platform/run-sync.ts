import type * as NodeChildProcess from "node:child_process";
import { nodeBuiltin } from "./builtin.ts";
import { bun } from "./bun.ts";
import { definedEnv } from "./env.ts";

export interface CapturedRun {
  readonly status: number | null;
  readonly stdout: Uint8Array;
  readonly stderr: Uint8Array;
  /** The process could not start (ENOENT when the command or cwd is missing): the code. */
  readonly error: string | null;
  readonly timedOut?: boolean;
}

export interface RunOptions {
  readonly cwd: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly timeoutMs?: number;
}

const EMPTY = new Uint8Array(0);

/** An argument array (never a shell), no stdin; Bun's native spawn where it exists. Never throws. */
export function runSync(
  command: string,
  args: readonly string[],
  options: RunOptions,
): CapturedRun {
  const started = Date.now();
  const timedOut = (status: number | null): boolean =>
    options.timeoutMs !== undefined && status === null && Date.now() - started >= options.timeoutMs;
  const limit =
    options.timeoutMs === undefined
      ? {}
      : { timeout: options.timeoutMs, killSignal: "SIGKILL" as NodeJS.Signals };
  if (bun) {
    try {
      const r = bun.spawnSync([command, ...args], {
        cwd: options.cwd,
        // Bun would pass the environment this process started with (see start-process.ts).
        env: definedEnv(options.env ?? process.env),
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
        ...limit,
      });
      return {
        status: r.exitCode,
        stdout: r.stdout ?? EMPTY,
        stderr: r.stderr ?? EMPTY,
        error: null,
        timedOut: timedOut(r.exitCode),
      };
    } catch (err) {
      return failed(err);
    }
  }
  const { spawnSync } = nodeBuiltin<typeof NodeChildProcess>("node:child_process");
  const r = spawnSync(command, [...args], {
    cwd: options.cwd,
    ...(options.env !== undefined ? { env: { ...options.env } } : {}),
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 1 << 30,
    ...limit,
  });
  if (r.error && (r.error as NodeJS.ErrnoException).code !== "ETIMEDOUT") return failed(r.error);
  const { status } = r;
  const stdout = r.stdout ?? EMPTY;
  return { status, stdout, stderr: r.stderr ?? EMPTY, error: null, timedOut: timedOut(status) };
}

function failed(err: unknown): CapturedRun {
  const code = (err as { code?: unknown })?.code;
  return {
    status: null,
    stdout: EMPTY,
    stderr: EMPTY,
    error: typeof code === "string" ? code : "ERROR",
  };
}

export function utf8(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}
