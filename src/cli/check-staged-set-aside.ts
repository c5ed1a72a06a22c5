import type { Journal } from "../stage/journal.ts";
import type { Survey } from "../stage/survey.ts";
import { stagedMessages } from "../ui/staged-report.ts";
import { mark } from "../util/trace.ts";
import type { StagedReads } from "./check-staged-reads.ts";

/** Setting them aside is not free: worth a word. */
const MANY_UNTRACKED = 1000;

/** What setting work aside leaves for the way back. */
export interface WorkAside {
  /** null: nothing was set aside. */
  readonly journal: Journal | null;
  /** Loaded with what sets work aside: the way out must not wait for an import. */
  readonly putBack: typeof import("../stage/restore.ts").putBack | null;
  /** Only a put-back has runs to stop first: a check with nothing set aside never loads it. */
  readonly stopLeftRuns: ((root: string, hostPid: number, started: number | null) => void) | null;
}

const NOTHING_ASIDE: WorkAside = { journal: null, putBack: null, stopLeftRuns: null };

/**
 * Make the working tree hold exactly what will be committed: unstaged and untracked work moves
 * into the stage folder (see hide.ts). A staged file left in place is taken out of `staged`.
 */
export async function setWorkAside(
  reads: StagedReads,
  survey: Survey,
  staged: Set<string>,
): Promise<WorkAside> {
  if (survey.unstaged.length === 0 && survey.untracked.length === 0) return NOTHING_ASIDE;
  const top = reads.top as string;
  const [{ setAside }, restoreModule, leftRuns] = await Promise.all([
    import("../stage/hide.ts"),
    import("../stage/restore.ts"),
    import("../stage/left-runs.ts"),
  ]);
  if (survey.untracked.length > MANY_UNTRACKED) {
    stagedMessages.manyUntracked(survey.untracked.length);
  }
  // From here the put-back releases the folder; should setting aside fail, what had
  // moved is back and the folder released, or all of it left for the next call.
  reads.hold.handOver();
  const journal = setAside(top, reads.hold.dir as string, survey, reads.root, { held: true });
  // A staged file whose place a folder took stays as it is (hide.ts, inTheWay): after the
  // runs it differs from the index as it did before, which is no callback's fix, and
  // staging it recorded its deletion in place of the version the person staged.
  const moved = new Set(journal?.tracked.map((c) => c.path));
  const left = survey.unstaged.filter((c) => !moved.has(c.path)).map((c) => c.path);
  stagedMessages.leftInPlace(left.filter((path) => staged.has(path)));
  for (const path of left) staged.delete(path);
  mark("staged: unstaged work set aside");
  return { journal, putBack: restoreModule.putBack, stopLeftRuns: leftRuns.stopLeftRunsNow };
}
