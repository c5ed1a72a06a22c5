import type { PutBack } from "../stage/restore.ts";
import { stagedMessages } from "../ui/staged-report.ts";
import type { StagedReads } from "./check-staged-reads.ts";
import type { WorkAside } from "./check-staged-set-aside.ts";

/** The set-aside work's way back: once, after the runs, or on the way out should cpilot exit first. */
export interface WayBack {
  /** Put the work back now, and no more on the way out. */
  now(): void;
  /** Put the work back now, the check never opened: nothing was checked. */
  unopened(): void;
  /** False when some work could not go back: it is all still in the stage folder. */
  allBack(): boolean;
}

export function wayBack(reads: StagedReads, aside: WorkAside, keptRoot: string): WayBack {
  const { root, hold } = reads;
  const top = reads.top as string;
  const dir = hold.dir as string;
  let done = false;
  let allBack = true;
  const restore = (checked = true): void => {
    if (done) return;
    done = true;
    const { journal, putBack, stopLeftRuns } = aside;
    if (journal === null || putBack === null) {
      hold.letGo();
      return;
    }
    try {
      // quitting at once (a second Ctrl-C): a run still going would write over the work
      stopLeftRuns?.(root, process.pid, null);
      const back: PutBack = putBack(dir, journal, { top, keptRoot });
      stagedMessages.putBack(journal, back, { checked });
    } catch (err) {
      // still all in the stage folder, with its journal: the next call tries again
      allBack = false;
      stagedMessages.putBackFailed(dir, err);
    }
  };
  // A second Ctrl-C exits at once: the files still go back on the way out.
  const restoreOnExit = (): void => restore();
  process.on("exit", restoreOnExit);
  const now = (checked: boolean): void => {
    restore(checked);
    process.off("exit", restoreOnExit);
    hold.release();
  };
  return {
    now: () => now(true),
    unopened: () => now(false),
    allBack: () => allBack,
  };
}
