import { Buffer } from "node:buffer";
import { randomHex } from "../platform/digest.ts";
import { runStop } from "../platform/process-stop.ts";
import { killGroup } from "../platform/spawn-group.ts";
import { startProcess } from "../platform/start-process.ts";
import { escapedProcesses, signalEach } from "../platform/stop-tree.ts";
import { becomeSubreaper } from "../platform/subreaper.ts";

export type ProcessOutcome =
  | { kind: "exited"; code: number; stdout: string; stderr: string }
  | { kind: "signaled"; signal: string; stderr: string }
  | { kind: "timeout"; seconds: number; stderr: string }
  | { kind: "too-much-output"; limit: number }
  | { kind: "spawn-failed"; code: string; message: string };

const MAX_STDOUT = 32 * 1024 * 1024;
const STDERR_TAIL = 2000;
/** After SIGTERM, the group's grace before SIGKILL. */
const KILL_GRACE_MS = 500;
/** After the plugin exits, a straggler holding its stdout open gets this long. */
const CLOSE_GRACE_MS = 200;

/** Own process group, so on timeout SIGTERM then SIGKILL reach grandchildren too. Never rejects. */
export function runProcess(
  argv: readonly string[],
  options: {
    cwd: string;
    env: Record<string, string | undefined>;
    input: string;
    timeoutMs: number;
  },
): Promise<ProcessOutcome> {
  // Before the plugin starts, so what it leaves behind (`setsid` included) comes to this
  // process, found by the marker in its environment; later, a quick orphan may be init's.
  return becomeSubreaper().then(() => runPlugin(argv, options, randomHex(8)));
}

function runPlugin(
  argv: readonly string[],
  options: {
    cwd: string;
    env: Record<string, string | undefined>;
    input: string;
    timeoutMs: number;
  },
  id: string,
): Promise<ProcessOutcome> {
  const marker = `CP_PLUGIN_RUN=${id}`;
  const [file, ...args] = argv;
  if (file === undefined) {
    return Promise.resolve({
      kind: "spawn-failed",
      code: "EINVAL",
      message: "the command is empty",
    });
  }
  return new Promise((resolvePromise) => {
    let settled = false;
    let timedOut = false;
    const stdout: Uint8Array[] = [];
    let stdoutBytes = 0;
    let stderr = "";
    const decoder = new TextDecoder();
    const timers: ReturnType<typeof setTimeout>[] = [];
    const seconds = options.timeoutMs / 1000;
    const stop = runStop();
    const finish = (outcome: ProcessOutcome): void => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      stop.removeEventListener("abort", onStop);
      // No plugin may leave anything running behind it, in its group or out of it.
      if (child.pid !== undefined) {
        signalEach(escapedProcesses(child.pid, marker), "SIGKILL");
        killGroup(child.pid, "SIGKILL");
      }
      child.stopReading();
      resolvePromise(outcome);
    };
    const child = startProcess(file, args, {
      cwd: options.cwd,
      env: { ...options.env, CP_PLUGIN_RUN: id },
      detached: true,
      stdin: options.input,
      onOutput: (chunk, stream) => {
        if (settled) return;
        if (stream === "stderr") {
          stderr = (stderr + decoder.decode(chunk, { stream: true })).slice(-STDERR_TAIL);
          return;
        }
        stdoutBytes += chunk.length;
        if (stdoutBytes > MAX_STDOUT) finish({ kind: "too-much-output", limit: MAX_STDOUT });
        else stdout.push(chunk);
      },
    });
    void child.exited.then(async (end) => {
      if (end.error !== null) {
        finish({ kind: "spawn-failed", code: end.error.code, message: end.error.message });
        return;
      }
      if (timedOut) {
        finish({ kind: "timeout", seconds, stderr });
        return;
      }
      await Promise.race([
        child.outputClosed,
        new Promise((resolve) => timers.push(setTimeout(resolve, CLOSE_GRACE_MS))),
      ]);
      if (end.signal !== null) finish({ kind: "signaled", signal: end.signal, stderr });
      else
        finish({
          kind: "exited",
          code: end.code ?? 0,
          stdout: Buffer.concat(stdout).toString("utf8"),
          stderr,
        });
    });
    // The hook is stopped (agent timeout, SIGTERM, a call given up): the plugin's own group,
    // which the hook's end would not reach, goes with it at once.
    function onStop(): void {
      finish({ kind: "signaled", signal: "SIGKILL", stderr });
    }
    if (stop.aborted) queueMicrotask(onStop);
    else stop.addEventListener("abort", onStop, { once: true });
    timers.push(
      setTimeout(() => {
        if (settled) return;
        timedOut = true;
        if (child.pid !== undefined) {
          signalEach(escapedProcesses(child.pid, marker), "SIGTERM");
          killGroup(child.pid, "SIGTERM");
        }
        timers.push(setTimeout(() => finish({ kind: "timeout", seconds, stderr }), KILL_GRACE_MS));
      }, options.timeoutMs),
    );
  });
}
