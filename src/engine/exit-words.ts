import type * as NodeOs from "node:os";
import { nodeBuiltin } from "../platform/builtin.ts";
import { toolExitMeaning } from "./tool-exit-words.ts";

const EXIT_MEANINGS: Record<number, string> = {
  1: "failed",
  2: "misuse or failed",
  126: "command found but not executable",
  127: "command not found",
  128: "invalid exit argument",
};

const SIGNAL_MEANINGS: Record<string, string> = {
  SIGTERM: "terminated",
  SIGKILL: "killed",
  SIGINT: "interrupted",
  SIGSEGV: "segmentation fault",
  SIGABRT: "aborted",
  SIGPIPE: "broken pipe",
  SIGHUP: "hang-up",
  SIGBUS: "bus error",
  SIGFPE: "arithmetic error",
  SIGILL: "illegal instruction",
};

/**
 * `exit 127 (command not found)`, `killed by SIGSEGV (segmentation fault)`, and a known
 * tool's own meaning: `exit 2 (type errors reported)` for tsc.
 */
export function describeExit(
  exitCode: number | null,
  signal: string | null,
  tool: string | null = null,
): string {
  if (signal !== null) {
    const meaning = SIGNAL_MEANINGS[signal];
    return `killed by ${signal}${meaning ? ` (${meaning})` : ""}`;
  }
  if (exitCode === null) return "did not exit";
  if (exitCode === 0) return "exit 0";
  const meaning =
    (exitCode < 126 ? toolExitMeaning(tool, exitCode) : undefined) ?? EXIT_MEANINGS[exitCode];
  if (meaning) return `exit ${exitCode} (${meaning})`;
  if (exitCode > 128 && exitCode < 160) {
    // node:os only here: loading it up front would cost every hook call.
    const { signals } = nodeBuiltin<typeof NodeOs>("node:os").constants;
    const name = Object.entries(signals).find(([, n]) => n === exitCode - 128)?.[0];
    if (name) return `exit ${exitCode} (its child was killed by ${name})`;
  }
  return `exit ${exitCode}`;
}

export function describeTimeout(timeoutMs: number, killed: boolean): string {
  const seconds =
    timeoutMs % 1000 === 0 ? `${timeoutMs / 1000} s` : `${(timeoutMs / 1000).toFixed(1)} s`;
  return `timed out after ${seconds}: sent SIGTERM${killed ? ", then SIGKILL" : ""}`;
}
