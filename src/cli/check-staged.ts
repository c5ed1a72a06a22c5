import { join } from "node:path";
import type { ProjectSnapshot } from "../cache/content.ts";
import { configRootAhead } from "../config/find.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import { seededProject } from "../stage/staged-project.ts";
import { StagedWatch } from "../stage/staged-watch.ts";
import { type Survey, sha256Ids } from "../stage/survey.ts";
import { CpilotError } from "../util/errors.ts";
import { mark } from "../util/trace.ts";
import { rebase, rootPrefix } from "./_root-paths.ts";
import { nothingStaged, type StagedCheck, type StagedStart } from "./check-staged-contract.ts";
import { finishStaged } from "./check-staged-finish.ts";
import { openFromIndex } from "./check-staged-from-index.ts";
import { wayBack } from "./check-staged-put-back.ts";
import { type StagedReads, startReads, startTreeSurvey, treeSurvey } from "./check-staged-reads.ts";
import { setWorkAside } from "./check-staged-set-aside.ts";

/** Loaded only when there is work to set aside: most commits' staged files are as on disk. */
const hide = (): Promise<typeof import("../stage/hide.ts")> => import("../stage/hide.ts");

/**
 * `check --staged`: the callbacks check what will be committed. Git's reads start as soon as
 * the config file is found, the stage folder held first when they look at the tree. Without
 * a root yet (no config), or with another root after loading, it all happens after the load.
 */
export function beginStagedCheck(
  cwd: string,
  explicit: string | undefined,
  options: { dryRun: boolean },
): StagedStart {
  const root = configRootAhead(cwd, explicit);
  const early =
    root === null
      ? null
      : startReads(root, cwd, { dryRun: options.dryRun, untracked: !options.dryRun });
  return {
    async open(config) {
      if (early !== null && early.root === config.root) return openStaged(early, config, options);
      early?.hold.release();
      const hideUntracked = config.source.hideUntracked ?? true;
      const late = startReads(config.root, cwd, {
        dryRun: options.dryRun,
        untracked: hideUntracked && !options.dryRun,
      });
      return openStaged(late, config, options);
    },
  };
}

/** From the index alone when it can key every result, else from a survey of the tree. */
async function openStaged(
  reads: StagedReads,
  config: ResolvedConfig,
  options: { dryRun: boolean },
): Promise<StagedCheck> {
  const { root, top } = reads;
  if (top === null || (reads.survey === null && reads.look === null)) {
    throw new CpilotError(
      `Cannot find staged files in "${root}": it is not inside a git work tree`,
      {
        hint: "pass PATHS or --all",
      },
    );
  }
  const hideUntracked = config.source.hideUntracked ?? true;
  const untracked = hideUntracked && !options.dryRun;
  if (reads.look !== null) {
    const look = await reads.look;
    mark("staged: index read");
    const fromIndex =
      look !== null && untracked && root === top
        ? await openFromIndex(reads, look, (survey) => openSurveyed(reads, survey, config))
        : null;
    if (fromIndex !== null) return fromIndex;
    startTreeSurvey(reads, untracked);
  }
  return openSurveyed(reads, await treeSurvey(reads, untracked), config);
}

/**
 * Set the work that is not staged aside, watch the staged files while the callbacks run,
 * and at the end stage the fixes and put the work back.
 */
async function openSurveyed(
  reads: StagedReads,
  survey: Survey,
  config: ResolvedConfig,
): Promise<StagedCheck> {
  const { root, gitDir, hold } = reads;
  const top = reads.top as string;
  const hideUntracked = config.source.hideUntracked ?? true;
  const files = rebase(survey.staged, top, root);
  const staged = new Set(survey.staged.filter((c) => c.kind !== "deleted").map((c) => c.path));
  const stageFixed = config.source.stageFixed ?? true;
  if (hold.dir === null || gitDir === null || files.length === 0) return nothingStaged(hold, files);
  // an index bit hides a file's change from git's survey: it is set aside all the same
  if (survey.bits.size > 0) survey.unstaged.push(...(await hide()).bitsToSetAside(top, survey));
  const keptRoot = join(gitDir, "cpilot", "kept");
  const keptDir = join(keptRoot, new Date().toISOString().replace(/[:.]/g, "-"));
  const aside = await setWorkAside(reads, survey, staged);
  // From here the work goes back whatever happens: after the runs, on the way out, or at
  // once should the check fail before it is open.
  const back = wayBack(reads, aside, keptRoot);
  let watched: Watched;
  try {
    const seed = aside.journal === null && hideUntracked && root === top;
    watched = await watchStaged(top, survey, staged, { at: reads.surveyedAt, keptDir, seed });
  } catch (err) {
    back.unopened();
    throw err;
  }
  const { watch, project } = watched;
  const prefix = rootPrefix(top, root);
  const fromTop = (paths: readonly string[]): string[] => paths.map((p) => `${prefix}${p}`);
  return {
    files,
    ...(project !== null ? { project } : {}),
    runStarted: (paths, fixer) => watch.runStarted(fromTop(paths), fixer),
    runEnded: (paths, fixer, callback) => watch.runEnded(fromTop(paths), fixer, callback),
    finish: ({ aborted }) =>
      finishStaged({ reads, survey, staged, watch, aside, back, keptDir, stageFixed }, aborted),
  };
}

interface Watched {
  readonly watch: StagedWatch;
  readonly project: ProjectSnapshot | null;
}

/**
 * Every staged file is read at each start and end of a run over it: a change a fixer did not
 * make is no fix (see staged-watch.ts). `seed`: the survey may key the cache (see
 * staged-project.ts) when every staged file holds what the index does.
 */
async function watchStaged(
  top: string,
  survey: Survey,
  staged: ReadonlySet<string>,
  options: { at: number; keptDir: string; seed: boolean },
): Promise<Watched> {
  const watch = new StagedWatch(top, sha256Ids(survey.indexed), options.keptDir);
  const differ = watch.watch(staged, survey.indexed, {
    at: options.at,
    except: new Set([...survey.bits.keys(), ...survey.unstaged.map((c) => c.path)]),
  });
  if (differ.length > 0) watch.doubt((await hide()).notTheStaged(top, differ, survey));
  const project =
    differ.length === 0 && options.seed && survey.head
      ? await seededProject(top, { ...survey, head: survey.head }, survey.bits)
      : null;
  return { watch, project };
}
