import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { isSameProcess } from "../platform/process-start.ts";
import { lockDirSync } from "../util/dir-lock.ts";
import { openVerifiedDir } from "../util/verified-dir.ts";
import { readJournal, settleOrphanFolder } from "./journal.ts";
import { stopLeftRuns } from "./left-runs.ts";
import { putBack } from "./restore.ts";

/** The lock recoverers take, beside the stage folder. */
const RECOVER_LOCK = "recover.lock";
/** Putting back a large set takes seconds; a dead holder's lock is broken at once. */
const RECOVER_WAIT_MS = 60_000;

export type Recovery =
  | { readonly status: "restored"; readonly lines: readonly string[] }
  | { readonly status: "busy"; readonly pid: number }
  | { readonly status: "nothing" };

function alive(pid: number, started: number | null): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  return isSameProcess(pid, started);
}

/**
 * Put back what a `check --staged` set aside in `dir` and did not restore (it was killed,
 * or the machine stopped), unless that check is still running. Says what it did.
 */
export async function recoverStage(dir: string): Promise<Recovery> {
  // One recoverer at a time: parallel calls (an agent's hooks fire together) each putting
  // back the same files took one another's restored files for callbacks' writes and moved
  // them to kept/. The others wait here, then find the folder gone.
  let unlock: () => void;
  const folder = openVerifiedDir(dirname(dir), "");
  try {
    unlock = lockDirSync(folder, RECOVER_LOCK, RECOVER_WAIT_MS);
  } catch (err) {
    folder.close();
    throw err;
  }
  try {
    if (!existsSync(dir)) return { status: "nothing" };
    return await recoverHeld(dir);
  } finally {
    unlock();
    folder.close();
  }
}

async function recoverHeld(dir: string): Promise<Recovery> {
  const keptRoot = join(dirname(dir), "kept");
  const journal = readJournal(dir);
  if (journal === null) {
    const kept = settleOrphanFolder(dir, keptRoot);
    if (kept === null) return { status: "nothing" };
    return {
      status: "restored",
      lines: [
        `cpilot: found files an interrupted \`cpilot check --staged\` set aside with no record of where they go: kept in ${kept}`,
        "hint: copy back what you miss from there (tracked/ holds working copies of tracked files, untracked/ untracked files)",
      ],
    };
  }
  if (journal.pid !== process.pid && alive(journal.pid, journal.started)) {
    return { status: "busy", pid: journal.pid };
  }
  // a run that outlived the check would write over the work about to go back
  if (journal.root !== undefined && journal.pid !== process.pid) {
    await stopLeftRuns(journal.root, journal.pid, journal.started);
  }
  const done = putBack(dir, journal, { top: journal.top, keptRoot });
  // a check killed before it set anything aside (it holds the folder from its start)
  if (journal.tracked.length === 0 && journal.untracked.length === 0) return { status: "nothing" };
  const lines = [
    `cpilot: put back ${done.restored} file${done.restored === 1 ? "" : "s"} an interrupted \`cpilot check --staged\` (pid ${journal.pid}, ${journal.createdAt}) had set aside: your unstaged and untracked work is as it was`,
  ];
  if (done.kept.length > 0) {
    lines.push(
      `cpilot: what callbacks had written over ${done.kept.length} of them is kept in ${done.keptDir}`,
    );
  }
  return { status: "restored", lines };
}
