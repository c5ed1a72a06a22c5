import { Buffer } from "node:buffer";
import type { CapturedRun } from "./run-sync.ts";
import { startProcess } from "./start-process.ts";

/**
 * Run a command to completion without blocking, capturing stdout and stderr: for work
 * that can overlap (two git scans of the same tree run on two cores at once). Never throws.
 */
export async function runAsync(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Readonly<Record<string, string | undefined>> },
): Promise<CapturedRun> {
  const out: Uint8Array[] = [];
  const err: Uint8Array[] = [];
  const child = startProcess(command, args, {
    cwd: options.cwd,
    ...(options.env !== undefined ? { env: options.env } : {}),
    onOutput: (chunk, stream) => (stream === "stdout" ? out : err).push(chunk),
  });
  const [end] = await Promise.all([child.exited, child.outputClosed]);
  return {
    status: end.code,
    stdout: Buffer.concat(out),
    stderr: Buffer.concat(err),
    error: end.error?.code ?? null,
  };
}
