import { dirname, join } from "node:path";
import type { FixReport } from "../stage/fixes.ts";
import { stagedSince } from "../stage/index-changed.ts";
import type { StagedWatch } from "../stage/staged-watch.ts";
import type { Survey } from "../stage/survey.ts";
import { stagedMessages } from "../ui/staged-report.ts";
import { mark } from "../util/trace.ts";
import type { WayBack } from "./check-staged-put-back.ts";
import type { StagedReads } from "./check-staged-reads.ts";
import type { WorkAside } from "./check-staged-set-aside.ts";

/** A surveyed check after its runs: what `finishStaged` settles. */
export interface Surveyed {
  readonly reads: StagedReads;
  readonly survey: Survey;
  /** Staged files the callbacks saw as staged: only these may take a fix. */
  readonly staged: ReadonlySet<string>;
  readonly watch: StagedWatch;
  readonly aside: WorkAside;
  readonly back: WayBack;
  /** Where a fix that cannot be staged, or an edit a fixer ran over, is kept. */
  readonly keptDir: string;
  readonly stageFixed: boolean;
}

/**
 * Stage the fixes and put the set-aside work back, whatever happens, then tell what the
 * commit records and whether it may pass.
 */
export async function finishStaged(s: Surveyed, aborted: boolean): Promise<boolean> {
  let report: FixReport | null = null;
  try {
    report = await settle(s, aborted);
  } finally {
    s.back.now();
  }
  mark("staged: fixes settled, work put back");
  return verdict(s, report, aborted);
}

async function settle(s: Surveyed, aborted: boolean): Promise<FixReport | null> {
  const { reads, survey, aside } = s;
  const verdicts = s.watch.verdicts();
  // Nothing set aside and no staged file changed: no fix to settle, no git call.
  const someChanged = [...verdicts.values()].some((v) => v.kind !== "same");
  if (aborted || (aside.journal === null && !someChanged)) return null;
  const { settleFixes } = await import("../stage/fixes.ts");
  mark("staged: fix code loaded");
  const dir = reads.hold.dir as string;
  const { stateDir } = reads;
  return settleFixes({
    top: reads.top as string,
    gitDir: reads.gitDir as string,
    dir: aside.journal ? dir : null,
    journal: aside.journal,
    staged: s.staged,
    verdicts,
    indexed: survey.indexed,
    bits: survey.bits,
    stageFixed: s.stageFixed,
    keptDir: s.keptDir,
    scratch: join(dir, "fixed"),
    ignore: (p) => p === stateDir || p.startsWith(`${stateDir}/`),
  });
}

async function verdict(s: Surveyed, report: FixReport | null, aborted: boolean): Promise<boolean> {
  const top = s.reads.top as string;
  const gitDir = s.reads.gitDir as string;
  const allBack = s.back.allBack();
  // Staged by someone else meanwhile (an agent's `git add`): the commit would record
  // what no check saw. Staging fixes compared the index under its lock; else its
  // stamp says whether git must be asked.
  let meanwhile = report?.restaged ?? [];
  if (!aborted && meanwhile.length === 0 && (report?.staged.length ?? 0) === 0) {
    meanwhile = stagedSince(top, gitDir, s.reads.indexStamp, s.survey.indexed);
  }
  if (report !== null) {
    stagedMessages.fixes(report, { stageFixed: s.stageFixed, keptIn: dirname(s.keptDir) });
  }
  stagedMessages.stagedMeanwhile(meanwhile);
  if (report === null) return allBack && meanwhile.length === 0;
  if (
    report.staged.length > 0 &&
    (await import("../stage/emptied-commit.ts")).fixesEmptiedCommit(top, gitDir)
  ) {
    stagedMessages.emptied(report.staged);
    return false;
  }
  return (
    allBack &&
    report.conflicts.length === 0 &&
    report.doubtful.length === 0 &&
    meanwhile.length === 0
  );
}
