import { stagedMeanwhile, stagedSince } from "../stage/index-changed.ts";
import type { IndexLook } from "../stage/index-look.ts";
import { pinnedProject } from "../stage/staged-project.ts";
import type { Survey } from "../stage/survey.ts";
import { stagedMessages } from "../ui/staged-report.ts";
import { CpilotError } from "../util/errors.ts";
import { mark } from "../util/trace.ts";
import { nothingStaged, type StagedCheck } from "./check-staged-contract.ts";
import { type StagedReads, startTreeSurvey, treeSurvey } from "./check-staged-reads.ts";

/**
 * The check as far as the index alone can take it: what is staged, keyed by the ids the
 * index holds. When every result is replayed nothing runs, so no work is set aside and git
 * never passes over the tree. Should a run be needed, `beforeRuns` surveys the tree and opens
 * the check `surveyed` opens, as a check that starts from the survey does, and the engine
 * plans again on what the survey found. Null when the index cannot key it all (see
 * staged-project.ts): the tree is surveyed now.
 */
export async function openFromIndex(
  reads: StagedReads,
  look: IndexLook,
  surveyed: (survey: Survey) => Promise<StagedCheck>,
): Promise<StagedCheck | null> {
  const top = reads.top as string;
  const gitDir = reads.gitDir as string;
  const files = look.staged;
  if (files.length === 0) return nothingStaged(reads.hold);
  const project = await pinnedProject(top, look);
  if (project === null) return null;
  let surveyedCheck: StagedCheck | null = null;
  return {
    files,
    project,
    beforeRuns: async () => {
      startTreeSurvey(reads, true);
      const survey = await treeSurvey(reads, true);
      assertNothingStagedSince(survey, look);
      surveyedCheck = await surveyed(survey);
      return { treeChanged: true, project: surveyedCheck.project ?? null };
    },
    runStarted: (paths, fixer) => surveyedCheck?.runStarted(paths, fixer),
    runEnded: (paths, fixer, callback) => surveyedCheck?.runEnded(paths, fixer, callback),
    async finish({ aborted }) {
      if (surveyedCheck !== null) return surveyedCheck.finish({ aborted });
      reads.hold.release();
      mark("staged: finished from the index");
      // Staged by someone else meanwhile: the commit would record what no check saw.
      const meanwhile = aborted ? [] : stagedSince(top, gitDir, reads.indexStamp, look.indexed);
      stagedMessages.stagedMeanwhile(meanwhile);
      return meanwhile.length === 0;
    },
  };
}

/** Staged or committed between the two looks: what was planned is not what is staged. */
function assertNothingStagedSince(survey: Survey, look: IndexLook): void {
  const meanwhile = stagedMeanwhile(survey.indexed, look.indexed);
  if (meanwhile.length === 0 && survey.head === look.head) return;
  throw new CpilotError(
    `Cannot check what is staged: ${meanwhile.length > 0 ? `${meanwhile.map((p) => JSON.stringify(p)).join(", ")} changed in the index` : "HEAD moved"} while cpilot read it`,
    { hint: "run the commit again once nothing else is staging or committing" },
  );
}
