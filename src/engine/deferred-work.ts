// Work a hook call's answer does not wait for: pruning old runs. A call answered in its own
// process does it at once, before it exits; a warm hook server does it once the answer is
// out (src/hook-server/server.ts), so the caller never waits for a folder listing or for
// old runs being deleted.

let queue: (() => void)[] | null = null;

/** From now on, work given to afterAnswer waits for runDeferredWork (a warm server). */
export function deferWorkAfterAnswers(): void {
  queue ??= [];
}

/** Do `work` now, or once the answer is out where that is deferred. */
export function afterAnswer(work: () => void): void {
  if (queue === null) work();
  else queue.push(work);
}

/** Do the work that waited for the answer, each piece on its own. */
export function runDeferredWork(): void {
  if (queue === null) return;
  for (const work of queue.splice(0)) {
    try {
      work();
    } catch {
      // bookkeeping that notes its own trouble (bookkeep); nothing here may stop the rest
    }
  }
}
