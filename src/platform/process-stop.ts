/** Aborted on SIGINT or SIGTERM: runs listen to it, so an agent that kills a hook stops its callbacks too. */
const controller = new AbortController();

export const processStop: AbortSignal = controller.signal;

export function whenStopped(): Promise<"stopped"> {
  return new Promise((resolve) => {
    if (processStop.aborted) resolve("stopped");
    else processStop.addEventListener("abort", () => resolve("stopped"), { once: true });
  });
}

export function stopProcessRuns(reason: Error): void {
  controller.abort(reason);
}

/** The call a long-lived process answers now: its runs stop when that call is given up. */
let callStop: AbortSignal | undefined;

export async function withCallStop<T>(signal: AbortSignal, answer: () => Promise<T>): Promise<T> {
  callStop = signal;
  try {
    return await answer();
  } finally {
    callStop = undefined;
  }
}

export function runStop(): AbortSignal {
  return callStop === undefined ? processStop : AbortSignal.any([processStop, callStop]);
}
