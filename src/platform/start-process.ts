import type * as NodeChildProcess from "node:child_process";
import { nodeBuiltin } from "./builtin.ts";
import { type BunRuntime, type BunSubprocess, bun } from "./bun.ts";
import { definedEnv } from "./env.ts";

export interface StartOptions {
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** setsid, so pid = pgid and the group can be signalled. */
  readonly detached?: boolean;
  readonly stdin?: string | Uint8Array;
  readonly onOutput?: (chunk: Uint8Array, stream: "stdout" | "stderr") => void;
  readonly outputFd?: number;
}

export interface ProcessEnd {
  readonly code: number | null;
  readonly signal: string | null;
  readonly error: { readonly code: string; readonly message: string } | null;
}

export interface StartedProcess {
  readonly pid: number | undefined;
  /** Not waiting for pipes a grandchild may hold. */
  readonly exited: Promise<ProcessEnd>;
  readonly outputClosed: Promise<void>;
  stopReading(): void;
  unref(): void;
}

/** An argument array, never a shell. Bun's native spawn where it exists: node:child_process is slow to load. Never throws. */
export function startProcess(
  command: string,
  args: readonly string[],
  options: StartOptions = {},
): StartedProcess {
  const started = bun
    ? startWithBun(bun, command, args, options)
    : startWithNode(command, args, options);
  const pid = started.pid;
  if (pid !== undefined) {
    startedPids.add(pid);
    void started.exited.then(() => startedPids.delete(pid));
  }
  return started;
}

/** Any other child of this process was adopted, as a subreaper. */
export const startedPids = new Set<number>();

function notStarted(err: unknown): StartedProcess {
  const e = err as { code?: unknown; message?: unknown };
  const end: ProcessEnd = {
    code: null,
    signal: null,
    error: {
      code: typeof e?.code === "string" ? e.code : "ERROR",
      message: typeof e?.message === "string" ? e.message : String(err),
    },
  };
  return {
    pid: undefined,
    exited: Promise.resolve(end),
    outputClosed: Promise.resolve(),
    stopReading() {},
    unref() {},
  };
}

function startWithBun(
  runtime: BunRuntime,
  command: string,
  args: readonly string[],
  options: StartOptions,
): StartedProcess {
  const piped = options.onOutput !== undefined;
  // Bun's default is the environment this process started with: `cpilot run`'s listener sets
  // process.env per call, and children must see that one.
  const env = definedEnv(options.env ?? process.env);
  const out = options.outputFd ?? (piped ? "pipe" : "ignore");
  let proc: BunSubprocess;
  try {
    proc = runtime.spawn([command, ...args], {
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      env,
      detached: options.detached === true,
      stdin:
        options.stdin === undefined
          ? "ignore"
          : typeof options.stdin === "string"
            ? new TextEncoder().encode(options.stdin)
            : options.stdin,
      stdout: out,
      stderr: out,
    });
  } catch (err) {
    return notStarted(err);
  }
  const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
  const pump = async (stream: unknown, name: "stdout" | "stderr"): Promise<void> => {
    if (!(stream instanceof ReadableStream)) return;
    const reader = stream.getReader() as ReadableStreamDefaultReader<Uint8Array>;
    readers.push(reader);
    try {
      for (;;) {
        const next = await reader.read();
        if (next.done) return;
        options.onOutput?.(next.value, name);
      }
    } catch {
      // cancelled by stopReading, or the pipe broke: either way nothing more comes
    }
  };
  const outputClosed = piped
    ? Promise.all([pump(proc.stdout, "stdout"), pump(proc.stderr, "stderr")]).then(() => {})
    : Promise.resolve();
  const exited = proc.exited.then(
    (): ProcessEnd => ({
      code: proc.exitCode,
      signal: proc.signalCode === null ? null : String(proc.signalCode),
      error: null,
    }),
  );
  return {
    pid: proc.pid,
    exited,
    outputClosed,
    stopReading() {
      for (const reader of readers) reader.cancel().catch(() => {});
    },
    unref() {
      proc.unref();
    },
  };
}

function startWithNode(
  command: string,
  args: readonly string[],
  options: StartOptions,
): StartedProcess {
  const { spawn } = nodeBuiltin<typeof NodeChildProcess>("node:child_process");
  const piped = options.onOutput !== undefined;
  const env = options.env === undefined ? undefined : definedEnv(options.env);
  let child: NodeChildProcess.ChildProcess;
  try {
    child = spawn(command, [...args], {
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(env !== undefined ? { env } : {}),
      detached: options.detached === true,
      stdio: [
        options.stdin === undefined ? "ignore" : "pipe",
        options.outputFd ?? (piped ? "pipe" : "ignore"),
        options.outputFd ?? (piped ? "pipe" : "ignore"),
      ],
    });
  } catch (err) {
    return notStarted(err);
  }
  const exited = new Promise<ProcessEnd>((resolve) => {
    child.once("error", (err: NodeJS.ErrnoException) =>
      resolve({
        code: null,
        signal: null,
        error: { code: err.code ?? "ERROR", message: err.message },
      }),
    );
    child.once("exit", (code, signal) => resolve({ code, signal, error: null }));
  });
  const closed = (stream: NodeJS.ReadableStream | null, name: "stdout" | "stderr") =>
    new Promise<void>((resolve) => {
      if (stream === null) return resolve();
      stream.on("data", (chunk: Uint8Array) => options.onOutput?.(chunk, name));
      stream.once("close", () => resolve());
      stream.once("error", () => resolve());
    });
  const outputClosed = Promise.all([
    closed(child.stdout, "stdout"),
    closed(child.stderr, "stderr"),
  ]).then(() => {});
  if (child.stdin && options.stdin !== undefined) {
    child.stdin.on("error", () => {
      // the child did not read its stdin: that is its right
    });
    child.stdin.end(options.stdin);
  }
  return {
    pid: child.pid,
    exited,
    outputClosed,
    stopReading() {
      child.stdout?.destroy();
      child.stderr?.destroy();
    },
    unref() {
      child.unref();
    },
  };
}
