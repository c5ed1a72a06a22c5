/** Taken by every read-modify-write of a context folder's files (CLI, Stop hook, MCP). */
import { LockTimeout, lockDirSync } from "../util/dir-lock.ts";
import { MovedError, openVerifiedDir } from "../util/verified-dir.ts";
import type { ContextPlace } from "./paths.ts";

/** Inside the context folder, only while an update runs. */
export const CONTEXT_LOCK = ".cpilot-context.lock";
/** Updates take milliseconds. */
const WAIT_MS = 15_000;

/** A folder that is not there and is not to be made needs none: nothing will be written. */
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
