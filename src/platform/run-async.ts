import { Buffer } from "node:buffer";
import type { CapturedRun, RunOptions } from "./run-sync.ts";
import { startProcess } from "./start-process.ts";

/**
 * Run a command to completion without blocking, capturing stdout and stderr: for work
 * that can overlap (two git scans of the same tree run on two cores at once). Never throws.
 */
export async function runAsync(
  command: string,
  args: readonly string[],
  options: RunOptions,
): Promise<CapturedRun> {
  const out: Uint8Array[] = [];
  const err: Uint8Array[] = [];
  const child = startProcess(command, args, {
    cwd: options.cwd,
    ...(options.env !== undefined ? { env: options.env } : {}),
    onOutput: (chunk, stream) => (stream === "stdout" ? out : err).push(chunk),
  });
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
  return {
    status: end.code,
    stdout: Buffer.concat(out),
    stderr: Buffer.concat(err),
    error: end.error?.code ?? null,
    timedOut,
  };
}
