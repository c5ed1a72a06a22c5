// This same cpilot as a child that can be stopped, for work that runs the user's code. It
// reports in stdout lines that start with a nonce from its environment, so the user code's
// prints cannot pass for a report.

import { parentPidEnv } from "./parent-death.ts";
import { selfArgv } from "./self-command.ts";
import { killGroup } from "./spawn-group.ts";
import { startProcess } from "./start-process.ts";
import { writeFd } from "./stdio.ts";

export interface ChildControl<T> {
  /** Settle with `result` (once): the child's whole process group is killed. */
  finish(result: T): void;
  arm(ms: number, result: () => T): void;
  disarm(): void;
  signal(signal: NodeJS.Signals): void;
}

export interface SupervisedChild<T> {
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: string;
  readonly nonceEnv: string;
  readonly deadline: { readonly ms: number; readonly result: () => T };
  onReport(payload: string, child: ChildControl<T>): void;
  onExit(how: string, child: ChildControl<T>): void;
  readonly stop?: {
    readonly signal: AbortSignal;
    onStop(child: ChildControl<T>): void;
  };
}

export function superviseSelf<T>(spec: SupervisedChild<T>): Promise<T> {
  const nonce = `cpilot-${crypto.randomUUID()}`;
  const [command, ...selfArgs] = selfArgv();
  return new Promise<T>((resolve) => {
    let settled = false;
    let pending = "";
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onStop = (): void => spec.stop?.onStop(control);
    const control: ChildControl<T> = {
      finish(result) {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        spec.stop?.signal.removeEventListener("abort", onStop);
        // Nothing of the child outlives the answer: the user code's own processes included.
        if (child.pid !== undefined) killGroup(child.pid, "SIGKILL");
        child.stopReading();
        resolve(result);
      },
      arm(ms, result) {
        clearTimeout(timer);
        timer = setTimeout(() => control.finish(result()), ms);
      },
      disarm() {
        clearTimeout(timer);
      },
      signal(signal) {
        if (child.pid !== undefined) killGroup(child.pid, signal);
      },
    };
    const child = startProcess(command as string, [...selfArgs, ...spec.args], {
      cwd: spec.cwd,
      env: { ...spec.env, ...parentPidEnv(), [spec.nonceEnv]: nonce },
      detached: true,
      stdin: spec.stdin,
      onOutput: (chunk, stream) => {
        if (stream === "stderr") {
          writeFd(2, new TextDecoder().decode(chunk));
          return;
        }
        pending += new TextDecoder().decode(chunk);
        let end = pending.indexOf("\n");
        while (end >= 0 && !settled) {
          const line = pending.slice(0, end);
          pending = pending.slice(end + 1);
          end = pending.indexOf("\n");
          if (line.startsWith(`${nonce} `)) spec.onReport(line.slice(nonce.length + 1), control);
        }
      },
    });
    if (spec.stop?.signal.aborted) onStop();
    else spec.stop?.signal.addEventListener("abort", onStop, { once: true });
    if (!settled) control.arm(spec.deadline.ms, spec.deadline.result);
    child.exited.then(async (end) => {
      await Promise.race([child.outputClosed, new Promise((r) => setTimeout(r, 200))]);
      if (settled) return;
      const how =
        end.error !== null
          ? `could not start (${end.error.message})`
          : end.signal !== null
            ? `was killed by ${end.signal}`
            : `exited with code ${end.code}`;
      spec.onExit(how, control);
    });
  });
}

/** Read once: the user code does not see it. */
export function takeNonce(nonceEnv: string): string | undefined {
  const nonce = process.env[nonceEnv];
  delete process.env[nonceEnv];
  return nonce;
}
