import { closeSync, openSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { sessionFolderName } from "../../agent-session/folder-name.ts";
import { stateDir } from "../../util/state-dir.ts";
import { STATE, statePath } from "../../util/state-layout.ts";
import { Semaphore } from "../semaphore.ts";

const slots = new Map<string, Semaphore>();

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

const sessionless = new Map<string, number>();

/**
 * Take one fire from a session's budget; false when it is used up. Each fire claims a numbered
 * file with O_EXCL, so two processes never both get the last one and a crash never gives one
 * back. Batches without a session count per `batchKey` in memory.
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

export function firesUsed(root: string, session: string): number {
  try {
    return readdirSync(budgetDir(root, session)).length;
  } catch {
    return 0;
  }
}
