import { closeSync, openSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { sessionFolderName } from "../../agent-session/folder-name.ts";
import { stateDir } from "../../util/state-dir.ts";
import { STATE, statePath } from "../../util/state-layout.ts";
import { Semaphore } from "../semaphore.ts";

/**
 * The limits that hold across runs: a semaphore on trigger-started runs (per process, held
 * for each run's whole life) and a budget of trigger fires per agent session (on disk, so
 * every cpilot process of the session draws from the same budget).
 */

const slots = new Map<string, Semaphore>();

/** The semaphore every trigger-started run of this project takes in this process. */
export function triggerSlots(root: string, maxConcurrent: number): Semaphore {
  const key = `${root}\0${maxConcurrent}`;
  let semaphore = slots.get(key);
  if (semaphore === undefined) {
    semaphore = new Semaphore(maxConcurrent);
    slots.set(key, semaphore);
  }
  return semaphore;
}

function budgetDir(root: string, session: string): string {
  return statePath(root, ...STATE.triggerBudget, sessionFolderName(session, "_"));
}

/** Fires taken by batches with no session: their budget lives as long as the process. */
const sessionless = new Map<string, number>();

/**
 * Take one fire from a session's budget; false when it is used up. Each fire claims a
 * numbered file with O_EXCL, so concurrent processes never both get the last one and a
 * crash never gives one back. Batches without a session (cpilot check, the API) count
 * per `batchKey` in memory instead: there is no session to share a budget with.
 */
export function claimFire(
  root: string,
  session: string | undefined,
  batchKey: string,
  budget: number,
): boolean {
  if (session === undefined) {
    const used = sessionless.get(batchKey) ?? 0;
    if (used >= budget) return false;
    sessionless.set(batchKey, used + 1);
    return true;
  }
  if (budget <= 0) return false;
  const dir = stateDir(root, ...STATE.triggerBudget, sessionFolderName(session, "_"));
  let n = readdirSync(dir).length + 1;
  for (; n <= budget; n++) {
    try {
      closeSync(openSync(join(dir, `fire-${n}`), "wx"));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
  return false;
}

/** Fires a session has used (for tests and `cpilot ps`). */
export function firesUsed(root: string, session: string): number {
  try {
    return readdirSync(budgetDir(root, session)).length;
  } catch {
    return 0;
  }
}
