import { existsSync } from "node:fs";
import { join } from "node:path";
import { gitRoot } from "../match/git-root.ts";
import { indexStamp } from "../stage/index-changed.ts";
import { indexFileOf } from "../stage/index-file.ts";
import { type IndexLook, startIndexLook } from "../stage/index-look.ts";
import { stageDir } from "../stage/journal.ts";
import { assertSameRepository } from "../stage/same-repository.ts";
import { StageHold } from "../stage/stage-hold.ts";
import {
  indexEntries,
  SPLIT_FROM_ENTRIES,
  type Survey,
  type SurveyStart,
  startSurvey,
} from "../stage/survey.ts";
import { findGitDir } from "../util/git-dir.ts";
import { STATE_DIR } from "../util/state-layout.ts";
import { mark } from "../util/trace.ts";
import { rootPrefix } from "./_root-paths.ts";

/** git's reads of what is staged under one config root, and the stage folder they need. */
export interface StagedReads {
  readonly root: string;
  /** The work tree's top; null outside git. */
  readonly top: string | null;
  /** cpilot's own folder, from `top`: never set aside, never staged. */
  readonly stateDir: string;
  readonly gitDir: string | null;
  readonly hold: StageHold;
  /** Read before git is asked anything (see index-changed.ts). */
  readonly indexStamp: string | null;
  /** Started instead of the survey when a replay may need no more (see check-staged-from-index.ts). */
  look: Promise<IndexLook | null> | null;
  survey: SurveyStart | null;
  /** What the survey found equal to the index was so then. */
  surveyedAt: number;
}

/**
 * Start git's reads for `root`: the index alone when the check may replay every result from
 * it, else the survey of the tree. Git's pass over the tree is most of a small commit's check,
 * so this starts as soon as the config file is found.
 */
export function startReads(
  root: string,
  cwd: string,
  options: { dryRun: boolean; untracked: boolean },
): StagedReads {
  const top = existsSync(join(root, ".git")) ? root : gitRoot(root);
  if (top !== null) assertSameRepository(cwd, top, root);
  const prefix = top === null ? "" : rootPrefix(top, root);
  const stateDir = `${prefix}${STATE_DIR}`;
  const gitDir = top === null ? null : findGitDir(top);
  const reads: StagedReads = {
    root,
    top,
    stateDir,
    gitDir,
    hold: new StageHold(gitDir === null || options.dryRun ? null : stageDir(gitDir)),
    indexStamp: gitDir === null ? null : indexStamp(indexFileOf(top as string, gitDir)),
    look: null,
    survey: null,
    surveyedAt: 0,
  };
  if (top === null) return reads;
  // The index alone is read without the stage folder: nothing of the tree is looked at or
  // moved unless a run is needed, and then the folder is held first (startTreeSurvey).
  if (options.untracked && gitDir !== null) {
    reads.look = startIndexLook(top, gitDir, { stateDir, indexFile: indexFileOf(top, gitDir) });
    reads.look.catch(() => {});
    mark("staged: index asked");
    return reads;
  }
  startTreeSurvey(reads, options.untracked);
  return reads;
}

/** The stage folder is held before the tree is looked at (see StageHold). */
export function startTreeSurvey(reads: StagedReads, untracked: boolean): void {
  const { gitDir, stateDir } = reads;
  const top = reads.top as string;
  reads.hold.hold(top, reads.root);
  const split = untracked && gitDir !== null && indexEntries(top, gitDir) >= SPLIT_FROM_ENTRIES;
  reads.surveyedAt = Date.now();
  reads.survey = startSurvey(top, {
    untracked,
    stateDir,
    split,
    ...(gitDir === null ? {} : { indexFile: indexFileOf(top, gitDir) }),
  });
  mark("staged: git asked");
}

/** The survey's answer; should git fail, the stage folder is let go before the error goes on. */
export async function treeSurvey(reads: StagedReads, untracked: boolean): Promise<Survey> {
  try {
    const survey = await (reads.survey as SurveyStart).result({ untracked });
    mark("staged: tree surveyed");
    return survey;
  } catch (err) {
    reads.hold.letGo();
    throw err;
  }
}
