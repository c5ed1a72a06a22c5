import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { ProjectSnapshot } from "../cache/content.ts";
import { configRootAhead } from "../config/find.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import type { TreeChanged } from "../engine/engine.ts";
import { gitRoot } from "../match/git-root.ts";
import type { FileChange } from "../model/batch.ts";
import type { FixReport } from "../stage/fixes.ts";
import { indexStamp, stagedEntries, stagedMeanwhile } from "../stage/index-changed.ts";
import { indexFileOf } from "../stage/index-file.ts";
import { type IndexLook, startIndexLook } from "../stage/index-look.ts";
import type { Journal } from "../stage/journal.ts";
import { claimStage, releaseUnusedStage, stageDir } from "../stage/journal.ts";
import type { PutBack } from "../stage/restore.ts";
import { StagedWatch } from "../stage/staged-watch.ts";
import {
  indexEntries,
  SPLIT_FROM_ENTRIES,
  type Survey,
  type SurveyStart,
  sha256Ids,
  startSurvey,
} from "../stage/survey.ts";
import { stagedMessages } from "../ui/staged-report.ts";
import { CpilotError } from "../util/errors.ts";
import { findGitDir } from "../util/git-dir.ts";
import { realOr } from "../util/real-path.ts";
import { STATE_DIR } from "../util/state-layout.ts";
import { mark } from "../util/trace.ts";
import { rebase, rootPrefix } from "./_root-paths.ts";

/** Setting them aside is not free: worth a word. */
const MANY_UNTRACKED = 1000;

export interface StagedCheck {
  /** Relative to the config root. */
  readonly files: FileChange[];
  /** False when a fix could not be combined with unstaged changes (the check must fail). */
  finish(options: { aborted: boolean }): Promise<boolean>;
  /** `files` from the config root. */
  runStarted(files: readonly string[], fixer: boolean): void;
  runEnded(files: readonly string[], fixer: boolean, callback: string): void;
  /** The project's content as git's survey saw it, where the tree holds just that (see seededProject). */
  readonly project?: ProjectSnapshot;
  /**
   * For the engine's `beforeRuns`: only the index was read so far (see openFromIndex), so
   * before any run starts the tree is surveyed and the work set aside.
   */
  readonly beforeRuns?: () => Promise<TreeChanged>;
}

export interface StagedStart {
  /**
   * Makes the working tree hold exactly what will be committed, unless there is nothing to
   * set aside (or a dry run). Should cpilot exit before `finish`, the files go back on the
   * way out; should it be killed, the next cpilot call puts them back.
   */
  open(config: ResolvedConfig): Promise<StagedCheck>;
}

/**
 * Git's pass over the tree is most of a small commit's check, so it starts as soon as the
 * config file is found, the stage folder held first. Without a root yet (no config), or
 * with another root after loading, it all happens after the load.
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
      : prepare(root, cwd, { dryRun: options.dryRun, untracked: !options.dryRun });
  return {
    async open(config) {
      if (early !== null && early.root === config.root) return openPrepared(early, config, options);
      early?.abandon();
      const hideUntracked = config.source.hideUntracked ?? true;
      const late = prepare(config.root, cwd, {
        dryRun: options.dryRun,
        untracked: hideUntracked && !options.dryRun,
      });
      return openPrepared(late, config, options);
    },
  };
}

interface Prepared {
  readonly root: string;
  readonly top: string | null;
  readonly stateDir: string;
  readonly gitDir: string | null;
  /** null in a dry run or without a git folder. */
  readonly dir: string | null;
  survey: SurveyStart | null;
  /** Started instead of the survey when a replay may need no more (see openFromIndex). */
  look: Promise<IndexLook | null> | null;
  /** What it found equal to the index was so then. */
  surveyedAt: number;
  /** See index-changed.ts. */
  readonly indexStamp: string | null;
  held: boolean;
  readonly letGo: () => void;
  /** Another root after all: let the stage folder go. */
  abandon(): void;
}

function prepare(
  root: string,
  cwd: string,
  options: { dryRun: boolean; untracked: boolean },
): Prepared {
  const top = existsSync(join(root, ".git")) ? root : gitRoot(root);
  if (top !== null) assertSameRepository(cwd, top, root);
  const prefix = top === null ? "" : rootPrefix(top, root);
  const stateDir = `${prefix}${STATE_DIR}`;
  const gitDir = top === null ? null : findGitDir(top);
  const dir = gitDir === null || options.dryRun ? null : stageDir(gitDir);
  const prepared: Prepared = {
    root,
    top,
    stateDir,
    gitDir,
    dir,
    survey: null,
    look: null,
    surveyedAt: 0,
    indexStamp: gitDir === null ? null : indexStamp(indexFileOf(top as string, gitDir)),
    held: false,
    letGo: () => {
      if (!prepared.held || dir === null) return;
      prepared.held = false;
      // held only while nothing is set aside: see openPrepared
      releaseUnusedStage(dir);
    },
    abandon: () => {
      prepared.letGo();
      process.off("exit", prepared.letGo);
    },
  };
  if (top === null) return prepared;
  // The index alone is read without the stage folder: nothing of the tree is looked at or
  // moved unless a run is needed, and then the folder is held first (startFullSurvey).
  if (options.untracked && gitDir !== null) {
    prepared.look = startIndexLook(top, gitDir, { stateDir, indexFile: indexFileOf(top, gitDir) });
    prepared.look.catch(() => {});
    mark("staged: index asked");
    return prepared;
  }
  startFullSurvey(prepared, options.untracked);
  return prepared;
}

/**
 * Held before the tree is looked at, for the rest of the check: a second check must never
 * survey a tree the first has set aside, then stage the work the first puts back.
 */
function holdStage(prepared: Prepared): void {
  const { dir, top, root } = prepared;
  if (dir === null || top === null || prepared.held) return;
  const hold: Omit<Journal, "pid" | "started"> = {
    version: 1,
    top,
    root,
    createdAt: new Date().toISOString(),
    tracked: [],
    untracked: [],
  };
  if (!claim(dir, hold)) {
    throw new CpilotError(
      "Cannot set unstaged changes aside: another `cpilot check --staged` is running in this repository",
      {
        hint: `wait for it to end; if it is gone, \`cpilot check --restore\` puts back what it set aside (kept in ${dir})`,
      },
    );
  }
  prepared.held = true;
  process.on("exit", prepared.letGo);
}

function startFullSurvey(prepared: Prepared, untracked: boolean): SurveyStart {
  holdStage(prepared);
  const { top, gitDir, stateDir } = prepared;
  const split =
    untracked && gitDir !== null && indexEntries(top as string, gitDir) >= SPLIT_FROM_ENTRIES;
  prepared.surveyedAt = Date.now();
  prepared.survey = startSurvey(top as string, {
    untracked,
    stateDir,
    split,
    ...(gitDir === null ? {} : { indexFile: indexFileOf(top as string, gitDir) }),
  });
  mark("staged: git asked");
  return prepared.survey;
}

async function openPrepared(
  prepared: Prepared,
  config: ResolvedConfig,
  options: { dryRun: boolean },
): Promise<StagedCheck> {
  const { root, top } = prepared;
  if (top === null || (prepared.survey === null && prepared.look === null)) {
    throw new CpilotError(
      `Cannot find staged files in "${root}": it is not inside a git work tree`,
      {
        hint: "pass PATHS or --all",
      },
    );
  }
  const hideUntracked = config.source.hideUntracked ?? true;
  const untracked = hideUntracked && !options.dryRun;
  if (prepared.look !== null) {
    const look = await prepared.look;
    mark("staged: index read");
    const fromIndex =
      look !== null && untracked && root === top
        ? await openFromIndex(prepared, look, config)
        : null;
    if (fromIndex !== null) return fromIndex;
    startFullSurvey(prepared, untracked);
  }
  return openSurveyed(prepared, await surveyed(prepared, untracked), config);
}

async function surveyed(prepared: Prepared, untracked: boolean): Promise<Survey> {
  try {
    const survey = await (prepared.survey as SurveyStart).result({ untracked });
    mark("staged: tree surveyed");
    return survey;
  } catch (err) {
    prepared.letGo();
    throw err;
  }
}

/**
 * The check as far as the index alone can take it: what is staged, keyed by the ids the
 * index holds. When every result is replayed nothing runs, so no work is set aside and git
 * never passes over the tree. Should a run be needed, `beforeRuns` surveys the tree and sets
 * work aside first, as a check that starts from the survey does. Null when the index cannot
 * key it all (see seededProject): the tree is surveyed now.
 */
async function openFromIndex(
  prepared: Prepared,
  look: IndexLook,
  config: ResolvedConfig,
): Promise<StagedCheck | null> {
  const { top, gitDir, letGo } = prepared;
  const files = look.staged;
  if (files.length === 0) return nothingStaged(prepared);
  const content = await import("../cache/content.ts");
  const changed = stagedIds(top as string, look, new Map(), content.NO_CONTENT);
  if (changed === null) return null;
  // keyed by what the index holds, never by the tree: it is not set aside yet
  const project = content.ProjectSnapshot.pinned(
    top as string,
    look.head,
    changed,
    look.configs,
    look.indexed,
  );
  let surveyedCheck: StagedCheck | null = null;
  return {
    files,
    project,
    beforeRuns: async () => {
      startFullSurvey(prepared, true);
      const survey = await surveyed(prepared, true);
      // staged or committed between the two looks: what was planned is not what is staged
      const meanwhile = stagedMeanwhile(survey.indexed, look.indexed);
      if (meanwhile.length > 0 || survey.head !== look.head) {
        throw new CpilotError(
          `Cannot check what is staged: ${meanwhile.length > 0 ? `${meanwhile.map((p) => JSON.stringify(p)).join(", ")} changed in the index` : "HEAD moved"} while cpilot read it`,
          { hint: "run the commit again once nothing else is staging or committing" },
        );
      }
      surveyedCheck = await openSurveyed(prepared, survey, config);
      return { treeChanged: true, project: surveyedCheck.project ?? null };
    },
    runStarted: (paths, fixer) => surveyedCheck?.runStarted(paths, fixer),
    runEnded: (paths, fixer, callback) => surveyedCheck?.runEnded(paths, fixer, callback),
    async finish({ aborted }) {
      if (surveyedCheck !== null) return surveyedCheck.finish({ aborted });
      letGo();
      process.off("exit", letGo);
      mark("staged: finished from the index");
      // Staged by someone else meanwhile: the commit would record what no check saw.
      const meanwhile =
        !aborted && indexStamp(indexFileOf(top as string, gitDir as string)) !== prepared.indexStamp
          ? stagedMeanwhile(stagedEntries(top as string), look.indexed)
          : [];
      stagedMessages.stagedMeanwhile(meanwhile);
      return meanwhile.length === 0;
    },
  };
}

/** Nothing staged (or a dry run): the stage folder is let go at once. */
function nothingStaged(prepared: Prepared, files: FileChange[] = []): StagedCheck {
  prepared.letGo();
  process.off("exit", prepared.letGo);
  return { files, finish: async () => true, runStarted: () => {}, runEnded: () => {} };
}

async function openSurveyed(
  prepared: Prepared,
  survey: Survey,
  config: ResolvedConfig,
): Promise<StagedCheck> {
  const { root, stateDir, gitDir, dir, letGo } = prepared;
  const top = prepared.top as string;
  const mine = (p: string): boolean => p === stateDir || p.startsWith(`${stateDir}/`);
  const hideUntracked = config.source.hideUntracked ?? true;
  const files = rebase(survey.staged, top, root);
  const staged = new Set(survey.staged.filter((c) => c.kind !== "deleted").map((c) => c.path));
  const stageFixed = config.source.stageFixed ?? true;
  if (dir === null || gitDir === null || files.length === 0) return nothingStaged(prepared, files);
  // Loaded only when there is work to set aside: most commits' staged files are as on disk.
  const hide = (): Promise<typeof import("../stage/hide.ts")> => import("../stage/hide.ts");
  if (survey.bits.size > 0) survey.unstaged.push(...(await hide()).bitsToSetAside(top, survey));
  const nothingAside = survey.unstaged.length === 0 && survey.untracked.length === 0;
  const keptRoot = join(gitDir, "cpilot", "kept");
  const keptDir = join(keptRoot, new Date().toISOString().replace(/[:.]/g, "-"));
  let journal: Journal | null = null;
  // Only a put-back has runs to stop first: a check with nothing set aside never loads it.
  let stopLeftRuns: ((root: string, hostPid: number, started: number | null) => void) | null = null;
  // Loaded with what sets work aside: the way out must not wait for an import.
  let putBack: typeof import("../stage/restore.ts").putBack | null = null;
  if (!nothingAside) {
    const [{ setAside }, restoreModule, leftRuns] = await Promise.all([
      hide(),
      import("../stage/restore.ts"),
      import("../stage/left-runs.ts"),
    ]);
    putBack = restoreModule.putBack;
    stopLeftRuns = leftRuns.stopLeftRunsNow;
    if (survey.untracked.length > MANY_UNTRACKED) {
      stagedMessages.manyUntracked(survey.untracked.length);
    }
    // From here the put-back releases the folder; should setting aside fail, what had
    // moved is back and the folder released, or all of it left for the next call.
    prepared.held = false;
    process.off("exit", letGo);
    journal = setAside(top, dir, survey, root, { held: true });
    // A staged file whose place a folder took stays as it is (hide.ts, inTheWay): after the
    // runs it differs from the index as it did before, which is no callback's fix, and
    // staging it recorded its deletion in place of the version the person staged.
    const moved = new Set(journal?.tracked.map((c) => c.path));
    const left = survey.unstaged.filter((c) => !moved.has(c.path)).map((c) => c.path);
    stagedMessages.leftInPlace(left.filter((path) => staged.has(path)));
    for (const path of left) staged.delete(path);
    mark("staged: unstaged work set aside");
  }
  // Every staged file is read at each start and end of a run over it: a change a fixer did
  // not make is no fix (see staged-watch.ts).
  const long = sha256Ids(survey.indexed);
  const watch = new StagedWatch(top, long, keptDir);
  const differ = watch.watch(staged, survey.indexed, {
    at: prepared.surveyedAt,
    except: new Set([...survey.bits.keys(), ...survey.unstaged.map((c) => c.path)]),
  });
  if (differ.length > 0) watch.doubt((await hide()).notTheStaged(top, differ, survey));
  const project =
    differ.length === 0 && journal === null && hideUntracked && root === top && survey.head
      ? await seededProject(top, { ...survey, head: survey.head }, survey.bits)
      : null;
  const prefix = rootPrefix(top, root);
  const fromTop = (paths: readonly string[]): string[] => paths.map((p) => `${prefix}${p}`);
  let done = false;
  let allBack = true;
  // `noneChanged`: settleFixes just found no staged or set-aside file changed (see putBack)
  const restore = (noneChanged = false): void => {
    if (done) return;
    done = true;
    if (journal === null || putBack === null) {
      letGo();
      return;
    }
    try {
      // quitting at once (a second Ctrl-C): a run still going would write over the work
      stopLeftRuns?.(root, process.pid, null);
      const back: PutBack = putBack(dir, journal, { top, keptRoot, noneChanged });
      stagedMessages.putBack(journal, back);
    } catch (err) {
      // still all in the stage folder, with its journal: the next call tries again
      allBack = false;
      stagedMessages.putBackFailed(dir, err);
    }
  };
  // A second Ctrl-C exits at once: the files still go back on the way out.
  const restoreOnExit = (): void => restore();
  process.on("exit", restoreOnExit);
  return {
    files,
    ...(project !== null ? { project } : {}),
    runStarted: (paths, fixer) => watch.runStarted(fromTop(paths), fixer),
    runEnded: (paths, fixer, callback) => watch.runEnded(fromTop(paths), fixer, callback),
    async finish({ aborted }) {
      let report: FixReport | null = null;
      try {
        const verdicts = watch.verdicts();
        // Nothing set aside and no staged file changed: no fix to settle, no git call.
        const someChanged = [...verdicts.values()].some((v) => v.kind !== "same");
        if (!aborted && (journal !== null || someChanged)) {
          const { settleFixes } = await import("../stage/fixes.ts");
          mark("staged: fix code loaded");
          report = settleFixes({
            top,
            gitDir,
            dir: journal ? dir : null,
            journal,
            staged,
            verdicts,
            indexed: survey.indexed,
            bits: survey.bits,
            stageFixed,
            keptDir,
            scratch: join(dir, "fixed"),
            ignore: mine,
          });
        }
      } finally {
        restore(report?.noneChanged === true);
        process.off("exit", restoreOnExit);
        process.off("exit", letGo);
      }
      mark("staged: fixes settled, work put back");
      // Staged by someone else meanwhile (an agent's `git add`): the commit would record
      // what no check saw. Staging fixes compared the index under its lock; else its
      // stamp says whether git must be asked.
      let meanwhile = report?.restaged ?? [];
      if (
        !aborted &&
        meanwhile.length === 0 &&
        (report?.staged.length ?? 0) === 0 &&
        indexStamp(indexFileOf(top, gitDir)) !== prepared.indexStamp
      ) {
        meanwhile = stagedMeanwhile(stagedEntries(top), survey.indexed);
      }
      if (report !== null) stagedMessages.fixes(report, { stageFixed, keptIn: dirname(keptDir) });
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
    },
  };
}

/** false while another check holds it; a CpilotError when it cannot be made. */
function claim(dir: string, hold: Omit<Journal, "pid" | "started">): boolean {
  try {
    return claimStage(dir, hold, { durable: false });
  } catch (err) {
    throw new CpilotError(
      `Cannot set unstaged changes aside in "${dir}": ${(err as Error).message}`,
      { hint: `make ${dirname(dir)} a folder cpilot can write (or remove it), then commit again` },
    );
  }
}

/**
 * Run in another repository (a nested one or submodule whose own commit runs the hook, a
 * --config into another), the check would judge that repository's staged files, never the
 * commit's own. Found by stats alone; a GIT_DIR or GIT_WORK_TREE still set is trusted.
 */
function assertSameRepository(cwd: string, top: string, root: string): void {
  if (process.env.GIT_DIR || process.env.GIT_WORK_TREE) return;
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, ".git"))) break;
    const parent = dirname(dir);
    if (parent === dir) return; // cwd is in no repository: nothing is being committed there
    dir = parent;
  }
  if (dir === top || realOr(dir) === realOr(top)) return;
  throw new CpilotError(
    `Cannot check what is staged in "${dir}": it is another git repository than the config's ("${root}" is in "${top}")`,
    {
      hint: `give that repository a config of its own (cpilot init there), or run cpilot check --staged in "${top}"`,
    },
  );
}

/** Index modes whose blob id is the id of the file's bytes (not a link's target, nor a submodule). */
const REGULAR_MODES = new Set(["100644", "100755"]);

/**
 * From what the survey read, so the cache's keys need no `git status`: only when nothing
 * was set aside, the staged files matched the index, no index bit or submodule hides a
 * file, and each is a regular file or a deletion. Else null: git is asked again.
 */
async function seededProject(
  top: string,
  read: StagedRead,
  bits: ReadonlyMap<string, unknown>,
): Promise<ProjectSnapshot | null> {
  const { NO_CONTENT, ProjectSnapshot } = await import("../cache/content.ts");
  const changed = stagedIds(top, read, bits, NO_CONTENT);
  return changed === null ? null : ProjectSnapshot.seeded(top, read.head, changed);
}

interface StagedRead {
  readonly head: string;
  readonly staged: readonly FileChange[];
  readonly indexed: ReadonlyMap<string, string>;
}

/** The staged files' content ids, where each is a regular file or a deletion, no index bit or submodule in the way; else null. */
function stagedIds(
  top: string,
  read: StagedRead,
  bits: ReadonlyMap<string, unknown>,
  none: string,
): Map<string, string> | null {
  if (bits.size > 0 || existsSync(join(top, ".gitmodules"))) return null;
  const changed = new Map<string, string>();
  for (const change of read.staged) {
    const [mode, id] = (read.indexed.get(change.path) ?? "").split(" ");
    if (change.kind === "deleted") changed.set(change.path, none);
    else if (mode !== undefined && REGULAR_MODES.has(mode) && id) changed.set(change.path, id);
    else return null;
  }
  return changed;
}
