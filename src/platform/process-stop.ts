/**
 * Aborted when this process is asked to stop (SIGINT, SIGTERM: see main.ts). Every run
 * started without a signal of its own listens to it, so an agent that kills a hook on its
 * timeout stops the callbacks that hook started too, instead of leaving them running.
 */
const controller = new AbortController();

export const processStop: AbortSignal = controller.signal;

/** Resolves "stopped" once this process is asked to stop (at once if it was). */
export function whenStopped(): Promise<"stopped"> {
  return new Promise((resolve) => {
    if (processStop.aborted) resolve("stopped");
    else processStop.addEventListener("abort", () => resolve("stopped"), { once: true });
  });
}

/** Stop every run of this process (their process groups get SIGTERM, then SIGKILL). */
export function stopProcessRuns(reason: Error): void {
  controller.abort(reason);
}

/**
 * The call a long-lived process is answering now (cpilot run's HTTP hook listener answers one
 * at a time): its runs stop when that call is given up, as a hook process's runs stop when the
 * agent kills it. Undefined outside such a call.
 */
let callStop: AbortSignal | undefined;

/** Answer one call with `signal` as its stop; runs started meanwhile listen to it too. */
export async function withCallStop<T>(signal: AbortSignal, answer: () => Promise<T>): Promise<T> {
  callStop = signal;
  try {
    return await answer();
  } finally {
    callStop = undefined;
  }
}

/** What a run started without a signal of its own listens to: the process's stop, and the call's. */
export function runStop(): AbortSignal {
  return callStop === undefined ? processStop : AbortSignal.any([processStop, callStop]);
}
