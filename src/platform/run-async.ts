import { Buffer } from "node:buffer";
import { type BunRuntime, type BunSubprocess, bun } from "./bun.ts";
import { definedEnv } from "./env.ts";
import type { CapturedRun, RunOptions } from "./run-sync.ts";
import { startedPids, startProcess } from "./start-process.ts";

/** A process that ends while some run kills them, so none outlives it. */
const running = new Set<number>();
let killOnExit = false;
function track(pid: number): void {
  running.add(pid);
  if (killOnExit) return;
  killOnExit = true;
  process.on("exit", () => {
    for (const live of running) {
      try {
        process.kill(live, "SIGKILL");
      } catch {
        // it ended meanwhile
      }
    }
  });
}

/** Without blocking, so work can overlap (two git scans on two cores). Never throws. */
export async function runAsync(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<CapturedRun> {
  if (bun?.readableStreamToBytes !== undefined) return captureWithBun(bun, command, args, options);
  const out: Uint8Array[] = [];
  const err: Uint8Array[] = [];
  const child = startProcess(command, args, {
    cwd: options.cwd,
    ...(options.env !== undefined ? { env: options.env } : {}),
    onOutput: (chunk, stream) => (stream === "stdout" ? out : err).push(chunk),
  });
  if (child.pid !== undefined) track(child.pid);
  let timedOut = false;
  const timer =
    options.timeoutMs === undefined || child.pid === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          child.stopReading(); // a grandchild holding the pipes must not keep us waiting
          try {
            process.kill(child.pid as number, "SIGKILL");
          } catch {
            // it ended meanwhile
          }
        }, options.timeoutMs);
  const [end] = await Promise.all([child.exited, child.outputClosed]);
  clearTimeout(timer);
  if (child.pid !== undefined) running.delete(child.pid);
  return {
    status: end.code,
    stdout: Buffer.concat(out),
    stderr: Buffer.concat(err),
    error: end.error?.code ?? null,
    timedOut,
  };
}

const EMPTY = new Uint8Array(0);

/**
 * Bun reads each pipe to its end natively: a large listing (git's index of 20,000 files is
 * 1.4 MB) is otherwise a promise and a callback per chunk in the interpreter.
 */
async function captureWithBun(
  runtime: BunRuntime,
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<CapturedRun> {
  let proc: BunSubprocess;
  try {
    proc = runtime.spawn([command, ...args], {
      cwd: options.cwd,
      env: definedEnv(options.env ?? process.env),
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    return {
      status: null,
      stdout: EMPTY,
      stderr: EMPTY,
      error: typeof code === "string" ? code : "ERROR",
      timedOut: false,
    };
  }
  const pid = proc.pid;
  track(pid);
  startedPids.add(pid);
  let timer: ReturnType<typeof setTimeout> | undefined;
  // killed at the timeout: a grandchild may hold the pipes open, so their ends are not awaited
  const stopped = new Promise<null>((resolve) => {
    if (options.timeoutMs === undefined) return;
    timer = setTimeout(() => {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // it ended meanwhile
      }
      resolve(null);
    }, options.timeoutMs);
  });
  const read = async (stream: unknown): Promise<Uint8Array> => {
    try {
      return await (runtime.readableStreamToBytes?.(stream) ?? EMPTY);
    } catch {
      return EMPTY; // the pipe broke: nothing more comes
    }
  };
  const ended = await Promise.race([
    Promise.all([read(proc.stdout), read(proc.stderr), proc.exited]),
    stopped,
  ]);
  clearTimeout(timer);
  void proc.exited.then(() => {
    running.delete(pid);
    startedPids.delete(pid);
  });
  if (ended === null)
    return { status: null, stdout: EMPTY, stderr: EMPTY, error: null, timedOut: true };
  return {
    status: proc.exitCode,
    stdout: ended[0],
    stderr: ended[1],
    error: null,
    timedOut: false,
  };
}
