import { STATE_DIR } from "./state-layout.ts";

// Bookkeeping under `.cpilot/` can fail (a full disk, a refused symlink). None of that may
// cost the agent a result: what could not be saved is told once, beside it.

const troubles = new Map<string, string>();

export function noteStateTrouble(root: string, err: unknown): void {
  if (troubles.has(root)) return;
  const reason = err instanceof Error ? err.message : String(err);
  troubles.set(root, reason);
}

/** For what only cpilot reads later: never a run's result. */
export function bookkeep<T>(root: string, fallback: T, work: () => T): T {
  try {
    return work();
  } catch (err) {
    noteStateTrouble(root, err);
    return fallback;
  }
}

/** Consumes it. */
export function takeStateTrouble(root: string): string | null {
  const reason = troubles.get(root);
  if (reason === undefined) return null;
  troubles.delete(root);
  return `cpilot: note: state could not be saved in ${STATE_DIR}/ (${reason}). The results in this reply are complete, but cpilot's records of them may be missing: run logs (\`cpilot logs\`), the session history the Stop check uses, locks between cpilot processes.`;
}
