import { fstatSync, statSync, writeSync } from "node:fs";
import type * as NodeTty from "node:tty";
import { nodeBuiltin } from "./builtin.ts";

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Write all of `text` to stdout (1) or stderr (2) before returning. Synchronous on purpose:
 * the first touch of `process.stdout`/`process.stderr` is slow in the compiled binary, and
 * every hook call and pre-commit run would pay it. Short writes continue; a full
 * non-blocking pipe (EAGAIN) is waited on; a reader that went away ends the write.
 */
export function writeFd(fd: 1 | 2, text: string): void {
  if (fd === 2 && stderrSink !== null) {
    stderrSink(text);
    return;
  }
  const data = new TextEncoder().encode(text);
  let offset = 0;
  while (offset < data.length) {
    try {
      offset += writeSync(fd, data, offset);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EAGAIN") return;
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}

let stderrSink: ((text: string) => void) | null = null;

/** Send what would go to stderr to `sink` instead (null: back to fd 2). `cpilot run`'s hook listener's. */
export function redirectStderr(sink: ((text: string) => void) | null): void {
  stderrSink = sink;
}

let protocolStdout = false;
let stdoutGuarded = false;

/**
 * Keep stdout for protocol: from now on `console.log` and friends, and `process.stdout`
 * (a config's or a TypeScript callback's output), go to stderr, while {@link writeOut} still
 * writes fd 1. The redirection itself is put in place by {@link beforeUserCode}, when code
 * that is not cpilot's is about to run here: redefining `process.stdout` makes Bun build
 * its whole lazy `process` object, which a call with a JSON config never needs.
 * `cpilot mcp` uses the stream-based guard its transport needs.
 */
export function keepStdoutForProtocol(): void {
  protocolStdout = true;
}

/**
 * Call before importing or running the user's code in this process (a script config, and
 * through it TypeScript callbacks, hooks and gate plugins): in protocol mode its prints
 * must not reach stdout.
 */
export function beforeUserCode(): void {
  if (!protocolStdout || stdoutGuarded) return;
  stdoutGuarded = true;
  consoleToStderr();
  try {
    Object.defineProperty(process, "stdout", { configurable: true, get: () => process.stderr });
  } catch {
    // a runtime whose process.stdout cannot be redefined: console is covered all the same
  }
}

/**
 * Send `console.log`, `info`, `debug`, `dir` and `table` to stderr (`console.error`).
 * Returns a function that puts them back.
 */
export function consoleToStderr(): () => void {
  const saved = {
    log: console.log,
    info: console.info,
    debug: console.debug,
    dir: console.dir,
    table: console.table,
  };
  const toError = (...args: unknown[]): void => console.error(...args);
  console.log = toError;
  console.info = toError;
  console.debug = toError;
  console.dir = toError;
  console.table = toError;
  return () => Object.assign(console, saved);
}

/** Protocol and --json output. */
export function writeOut(text: string): void {
  writeFd(1, text);
}

/** Everything for people. */
export function writeErr(text: string): void {
  writeFd(2, text);
}

/**
 * Is this descriptor a terminal? fstat tells a pipe, a file or /dev/null at once; only
 * another character device (a terminal, most likely) pays for loading node:tty.
 */
export function isTerminal(fd: 0 | 1 | 2): boolean {
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice() || st.rdev === statSync("/dev/null").rdev) return false;
  } catch {
    return false;
  }
  return nodeBuiltin<typeof NodeTty>("node:tty").isatty(fd);
}

/** Width of the terminal on stderr (80 when unknown). */
export function terminalColumns(): number {
  return process.stderr.columns || 80;
}
