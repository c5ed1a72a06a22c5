import { Buffer } from "node:buffer";
import type { CapturedRun, RunOptions } from "./run-sync.ts";
import { startProcess } from "./start-process.ts";

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
