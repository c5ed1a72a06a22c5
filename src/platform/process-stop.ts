/**
 * Aborted when this process is asked to stop (SIGINT, SIGTERM: see main.ts). Every run
 * started without a signal of its own listens to it, so an agent that kills a hook on its
 * timeout stops the callbacks that hook started too, instead of leaving them running.
 */
const controller = new AbortController();

export const processStop: AbortSignal = controller.signal;

/** Stop every run of this process (their process groups get SIGTERM, then SIGKILL). */
export function stopProcessRuns(reason: Error): void {
  controller.abort(reason);
}
