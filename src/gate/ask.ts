import { closeSync, openSync, writeSync } from "node:fs";
import type * as NodeTty from "node:tty";
import type { AskMode, HeadlessMode, TtyPrompt } from "../model/gate-types.ts";
import { nodeBuiltin } from "../platform/builtin.ts";

/**
 * On /dev/tty, never stdin (it belongs to the agent's protocol). null when there is no
 * terminal; false on no, no answer in time, or end of input.
 */
export const promptOnTty: TtyPrompt = (question, timeoutMs) =>
  new Promise((resolvePromise) => {
    let fd: number;
    try {
      fd = openSync("/dev/tty", "r+");
    } catch {
      resolvePromise(null);
      return;
    }
    let stream: NodeTty.ReadStream;
    try {
      writeSync(fd, `${question} [y/N] `);
      stream = new (nodeBuiltin<typeof NodeTty>("node:tty").ReadStream)(fd);
    } catch {
      closeSync(fd);
      resolvePromise(null);
      return;
    }
    let line = "";
    let settled = false;
    const finish = (answer: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (answer === false && !line.includes("\n")) {
        try {
          writeSync(fd, "\n(no answer: treated as no)\n");
        } catch {
          // the terminal went away
        }
      }
      stream.destroy();
      resolvePromise(answer);
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    stream.on("data", (chunk: Buffer | string) => {
      line += chunk.toString();
      const end = line.indexOf("\n");
      if (end >= 0) finish(/^\s*y(es)?\s*$/i.test(line.slice(0, end)));
    });
    stream.on("end", () => finish(false));
    stream.on("error", () => finish(false));
  });

/** No one is at a terminal there. */
export function inCi(env: Record<string, string | undefined> = process.env): boolean {
  const ci = env.CI;
  return ci !== undefined && ci !== "" && ci !== "0" && ci.toLowerCase() !== "false";
}

/** The caller's override, else a headless mode in CI, else prompt. */
export function effectiveAskMode(mode: AskMode | undefined, headless: HeadlessMode): AskMode {
  if (mode !== undefined) return mode;
  return inCi() ? headless : "prompt";
}
