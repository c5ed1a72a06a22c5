// The hook call's input: the agent's JSON on stdin, read with a deadline and a size limit.
import { bun, type BunStdinReader as ChunkReader } from "../platform/bun.ts";
import { processStop } from "../platform/process-stop.ts";
import { isTerminal } from "../platform/stdio.ts";
import { decodeBytes } from "../util/path-bytes.ts";

/** What reading stdin gave: all of it, or (complete: false) why not and what had arrived. */
export interface HookInput {
  readonly text: string;
  readonly complete: boolean;
  readonly problem?: string;
}

/** Longest wait for the agent to send and close stdin; a hook must never hang. */
export const STDIN_TIMEOUT_MS = 10_000;

/** `CPILOT_HOOK_STDIN_TIMEOUT_MS` overrides the wait (tests, very slow machines). */
function stdinTimeout(): number {
  const ms = Number(process.env.CPILOT_HOOK_STDIN_TIMEOUT_MS);
  return Number.isFinite(ms) && ms > 0 ? ms : STDIN_TIMEOUT_MS;
}

/** Hook payloads are JSON with file contents in them; past this something is wrong. */
const MAX_STDIN_BYTES = 64 * 1024 * 1024;

/** What the sniffing of an unreadable input keeps: the event name comes before the tool input. */
const KEPT_PREFIX = 1024 * 1024;

/**
 * Read all of stdin, or give up after `timeoutMs` or `MAX_STDIN_BYTES` (complete: false,
 * with `problem` and the start of what arrived, for the event name).
 */
export async function readStdin(timeoutMs = stdinTimeout()): Promise<HookInput> {
  if (isTerminal(0)) return { text: "", complete: false };
  const reader = stdinReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<"timeout" | "stopped">((resolvePromise) => {
    timer = setTimeout(() => resolvePromise("timeout"), timeoutMs);
    // SIGTERM (the agent's hook timeout) ends the wait too: the call is answered at once.
    if (processStop.aborted) resolvePromise("stopped");
    else processStop.addEventListener("abort", () => resolvePromise("stopped"), { once: true });
  });
  const prefix = (): string => Buffer.concat(parts).subarray(0, KEPT_PREFIX).toString("utf8");
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), timeout]);
      if (next === "timeout" || next === "stopped" || size > MAX_STDIN_BYTES) {
        // Cancelling releases the pipe, so a writer that never closes cannot keep us alive.
        reader.cancel().catch(() => {});
        const problem =
          next === "timeout"
            ? `Cannot read the hook input: stdin did not close within ${timeoutMs / 1000} s`
            : next === "stopped"
              ? "Cannot read the hook input: the hook was stopped (SIGTERM) before it arrived"
              : `Cannot read the hook input: it is over ${MAX_STDIN_BYTES / 1024 / 1024} MiB`;
        return { text: prefix(), complete: false, problem };
      }
      if (next.done) break;
      if (size < KEPT_PREFIX || size + next.value.length <= MAX_STDIN_BYTES) parts.push(next.value);
      size += next.value.length;
    }
  } catch (err) {
    return {
      text: prefix(),
      complete: false,
      problem: `Cannot read the hook input: ${err instanceof Error ? err.message : String(err)}`,
    };
  } finally {
    clearTimeout(timer);
  }
  // bytes that are not UTF-8 (a file name) are kept, not made U+FFFD: see path-bytes.ts
  return { text: decodeBytes(Buffer.concat(parts)), complete: true };
}

/**
 * Bun's own stdin stream (about 1 ms to EOF, measured in the compiled binary) rather than
 * `process.stdin` (about 8 ms): this runs on every edit the agent makes.
 */
function stdinReader(): ChunkReader {
  if (bun) return bun.stdin.stream().getReader();
  const streams = ReadableStream as unknown as { from(it: AsyncIterable<Uint8Array>): unknown };
  return (streams.from(process.stdin) as { getReader(): ChunkReader }).getReader();
}
