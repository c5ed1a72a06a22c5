import type { RunFunction } from "../config/types.ts";
import type { RunOutput } from "../platform/run-output.ts";
import { capturePrints } from "../platform/user-output.ts";
import type { TriggerInput } from "./triggers/types.ts";

export interface FunctionResult {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly aborted: boolean;
}

/**
 * Run a TypeScript callback in-process. Nothing, 0 or true passes; a number is its exit
 * code, false is 1, a throw fails. A function that ignores its abort signal is left behind
 * and reported as timed out. Its prints go to its log, never to cpilot's stdout.
 */
export async function runFunction(options: {
  fn: RunFunction;
  files: readonly string[];
  root: string;
  runId: string;
  callback: string;
  timeoutMs: number;
  signal: AbortSignal;
  output: RunOutput;
  hook?: TriggerInput;
}): Promise<FunctionResult> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error("timed out"));
  }, options.timeoutMs);
  const onAbort = (): void => controller.abort(options.signal.reason);
  if (options.signal.aborted) onAbort();
  else options.signal.addEventListener("abort", onAbort, { once: true });
  const stopped = new Promise<"stopped">((resolve) => {
    controller.signal.addEventListener("abort", () => resolve("stopped"), { once: true });
  });
  const prints = capturePrints((chunk) => options.output.write(chunk));
  try {
    const value = await Promise.race([
      prints.run(() =>
        Promise.resolve().then(() =>
          options.fn({
            files: options.files,
            root: options.root,
            signal: controller.signal,
            runId: options.runId,
            callback: options.callback,
            log: (line) => options.output.line(line),
            ...(options.hook ? { hook: options.hook } : {}),
          }),
        ),
      ),
      stopped,
    ]);
    if (value === "stopped") return { exitCode: null, timedOut, aborted: !timedOut };
    if (typeof value === "number") return { exitCode: value, timedOut: false, aborted: false };
    if (value === false) return { exitCode: 1, timedOut: false, aborted: false };
    return { exitCode: 0, timedOut: false, aborted: false };
  } catch (err) {
    if (controller.signal.aborted) return { exitCode: null, timedOut, aborted: !timedOut };
    options.output.line(err instanceof Error ? (err.stack ?? err.message) : String(err));
    return { exitCode: 1, timedOut: false, aborted: false };
  } finally {
    prints.close();
    clearTimeout(timer);
    options.signal.removeEventListener("abort", onAbort);
  }
}
