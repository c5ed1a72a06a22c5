import { STATE_DIR } from "./state-layout.ts";

// Bookkeeping under `.cpilot/` (logs, records, locks, session facts) can fail: a disk that
// is full, a read-only project, a `.cpilot` that is a file, a FIFO or a symlink (refused,
// see state-dir.ts). None of that may cost the agent a result: the work is done and
// reported in the same reply, and what could not be saved is told once, beside it.

/** Per project root: the first reason state could not be saved, not yet told. */
const troubles = new Map<string, string>();

/** Remember that some state of `root` could not be saved, and why. */
export function noteStateTrouble(root: string, err: unknown): void {
  if (troubles.has(root)) return;
  const reason = err instanceof Error ? err.message : String(err);
  troubles.set(root, reason);
}

/**
 * Run one piece of bookkeeping; when it throws, note why and return `fallback`. For what
 * only cpilot itself reads later: never the result of a run.
 */
export function bookkeep<T>(root: string, fallback: T, work: () => T): T {
  try {
    return work();
  } catch (err) {
    noteStateTrouble(root, err);
    return fallback;
  }
}

/** The note for the agent (and the person) when state could not be saved; consumes it. */
export function takeStateTrouble(root: string): string | null {
  const reason = troubles.get(root);
  if (reason === undefined) return null;
  troubles.delete(root);
  return `cpilot: note: state could not be saved in ${STATE_DIR}/ (${reason}). The results in this reply are complete, but cpilot's records of them may be missing: run logs (\`cpilot logs\`), the session history the Stop check uses, locks between cpilot processes.`;
}
