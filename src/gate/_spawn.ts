import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";

export type ProcessOutcome =
  | { kind: "exited"; code: number; stdout: string; stderr: string }
  | { kind: "signaled"; signal: string; stderr: string }
  | { kind: "timeout"; seconds: number; stderr: string }
  | { kind: "too-much-output"; limit: number }
  | { kind: "spawn-failed"; code: string; message: string };

const MAX_STDOUT = 32 * 1024 * 1024;
const STDERR_TAIL = 2000;
/** After SIGTERM, the group gets this long before SIGKILL. */
const KILL_GRACE_MS = 500;
/** After the plugin exits, a straggler holding its stdout open gets this long. */
const CLOSE_GRACE_MS = 200;

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

/**
 * Run `argv` in its own process group with `input` on stdin; collect stdout and a stderr
 * tail. On timeout the whole group gets SIGTERM, then SIGKILL after a grace period, so
 * grandchildren die too. Never rejects.
 */
export function runProcess(
  argv: readonly string[],
  options: {
    cwd: string;
    env: Record<string, string | undefined>;
    input: string;
    timeoutMs: number;
  },
): Promise<ProcessOutcome> {
  return new Promise((resolvePromise) => {
    const [file, ...args] = argv;
    if (file === undefined) {
      resolvePromise({ kind: "spawn-failed", code: "EINVAL", message: "the command is empty" });
      return;
    }
    let settled = false;
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = "";
    const timers: ReturnType<typeof setTimeout>[] = [];
    const child = spawn(file, args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const finish = (outcome: ProcessOutcome): void => {
      if (settled) return;
      settled = true;
      for (const t of timers) clearTimeout(t);
      // No plugin may leave anything running behind it.
      killGroup(child.pid, "SIGKILL");
      resolvePromise(outcome);
    };
    child.on("error", (err: NodeJS.ErrnoException) => {
      finish({ kind: "spawn-failed", code: err.code ?? "ERROR", message: err.message });
    });
    child.stdin.on("error", () => {
      // the plugin did not read its input; its answer still counts
    });
    child.stdout.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > MAX_STDOUT) {
        finish({ kind: "too-much-output", limit: MAX_STDOUT });
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL);
    });
    const done = (code: number | null, signal: NodeJS.Signals | null): void => {
      if (signal !== null) finish({ kind: "signaled", signal, stderr });
      else
        finish({
          kind: "exited",
          code: code ?? 0,
          stdout: Buffer.concat(stdout).toString("utf8"),
          stderr,
        });
    };
    child.on("close", done);
    child.on("exit", (code, signal) => {
      timers.push(setTimeout(() => done(code, signal), CLOSE_GRACE_MS));
    });
    timers.push(
      setTimeout(() => {
        if (settled) return;
        killGroup(child.pid, "SIGTERM");
        const seconds = options.timeoutMs / 1000;
        timers.push(setTimeout(() => finish({ kind: "timeout", seconds, stderr }), KILL_GRACE_MS));
        child.removeAllListeners("close");
        child.removeAllListeners("exit");
        child.on("close", () => finish({ kind: "timeout", seconds, stderr }));
      }, options.timeoutMs),
    );
    child.stdin.end(options.input);
  });
}
