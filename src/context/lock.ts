/** The lock every read-modify-write of a context folder's files takes (CLI, Stop hook, MCP). */
import { LockTimeout, lockDirSync } from "../util/dir-lock.ts";
import { MovedError, openVerifiedDir } from "../util/verified-dir.ts";
import type { ContextPlace } from "./paths.ts";

/** The lock's name inside the context folder (there only while an update runs). */
export const CONTEXT_LOCK = ".cpilot-context.lock";
/** How long an update waits for another one: they take milliseconds. */
const WAIT_MS = 15_000;

/**
 * Take the context folder's lock (creating the folder when `create`: an add makes its
 * file). A folder that is not there and is not to be made needs none: nothing will be
 * written. Else `problem` says why the updates cannot be applied.
 */
export function lockContext(
  place: Extract<ContextPlace, { ok: true }>,
  create: boolean,
): { release(): void } | { problem: string } | null {
  let dir: ReturnType<typeof openVerifiedDir>;
  try {
    dir = openVerifiedDir(place.within, place.rel, { create });
  } catch (err) {
    if (!create && (err as NodeJS.ErrnoException).code === "ENOENT") return null;
    const why = err instanceof MovedError ? err.message : (err as Error).message;
    return { problem: `Cannot update the context folder ${place.real}: ${why}` };
  }
  try {
    const unlock = lockDirSync(dir, CONTEXT_LOCK, WAIT_MS);
    return {
      release() {
        unlock();
        dir.close();
      },
    };
  } catch (err) {
    dir.close();
    const why =
      err instanceof LockTimeout
        ? `${err.message}, still after ${WAIT_MS / 1000} s`
        : (err as Error).message;
    return { problem: `Cannot update the context folder ${place.real}: ${why}` };
  }
}
