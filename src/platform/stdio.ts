import { fstatSync, statSync, writeSync } from "node:fs";
import type * as NodeTty from "node:tty";
import { nodeBuiltin } from "./builtin.ts";

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Write all of `text` to fd 1 or 2 before returning. Synchronous: the first touch of
 * `process.stdout` is slow in the compiled binary. A full pipe is waited on; a gone reader ends it.
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

export function redirectStderr(sink: ((text: string) => void) | null): void {
  stderrSink = sink;
}

let protocolStdout = false;
let stdoutGuarded = false;

/**
 * From now on prints (a config's, a TypeScript callback's) go to stderr while {@link writeOut}
 * still writes fd 1. Put in place by {@link beforeUserCode} only: redefining `process.stdout`
 * makes Bun build its whole lazy `process` object.
 */
export function keepStdoutForProtocol(): void {
  protocolStdout = true;
}

/** Call before running the user's code here: in protocol mode its prints must not reach stdout. */
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

/** Only a character device pays for loading node:tty. */
export function isTerminal(fd: 0 | 1 | 2): boolean {
  try {
    const st = fstatSync(fd);
    if (!st.isCharacterDevice() || st.rdev === statSync("/dev/null").rdev) return false;
  } catch {
    return false;
  }
  return nodeBuiltin<typeof NodeTty>("node:tty").isatty(fd);
}

export function terminalColumns(): number {
  return process.stderr.columns || 80;
}
