import type { ProjectSnapshot } from "../cache/content.ts";
import { markerMemory } from "../cache/marker-memory.ts";
import { type ResolvedConfig, resolveConfig } from "../config/resolve.ts";
import { isActive, readToggles } from "../config/state.ts";
import type { CpilotConfig } from "../config/types.ts";
import type { EditBatch } from "../model/batch.ts";
import type { Outcome, RunResult } from "../model/outcome.ts";
import { randomHex } from "../platform/digest.ts";
import { runStop } from "../platform/process-stop.ts";
import { ownFiles } from "../project/not-own.ts";
import { bookkeep } from "../util/bookkeeping.ts";
import { mark } from "../util/trace.ts";
import { AfterLooks } from "./after-looks.ts";
import { allReplayed, prepareLookups } from "./batch-lookups.ts";
import { dirtyFiles } from "./dirty-files.ts";
import { nestedConfigMarkers } from "./nested-configs.ts";
import { runOrder } from "./order.ts";
import { type PlannedRun, type PlanOptions, planBatch } from "./plan.ts";
import { reachAgain } from "./reach-again.ts";
import { fetchRemoteResults, settleRemoteResults } from "./remote-results.ts";
import { isHit, replayRun } from "./replay-run.ts";
import { pruneRuns } from "./runs-store.ts";
import { Semaphore } from "./semaphore.ts";
import type { TriggerSink } from "./triggers/types.ts";

export interface RunOptions extends PlanOptions {
  readonly signal?: AbortSignal;
  readonly onPlanned?: (runs: readonly PlannedRun[]) => void;
  readonly onRunStart?: (run: { id: string; callback: string; files: readonly string[] }) => void;
  readonly onRunEnd?: (run: RunResult) => void;
  /** Past this many files, rewrites are found by time (named, no line diff) rather than by reading every file first. */
  readonly contentSnapshotLimit?: number;
  readonly resyncTree?: boolean;
  readonly extraEnv?: Readonly<Record<string, string>>;
  /** Default: env CP_HOOK_DEPTH (set for trigger-started runs), else 0. */
  readonly triggerDepth?: number;
  /** Non-blocking runs stop when this process exits, unless `persist`. Default: env CP_OWNER_PID, else this process. */
  readonly ownerPid?: number;
  readonly project?: ProjectSnapshot;
  /**
   * Called once the lookups are made, when some run is to start (not when every result is
   * replayed), some file was left out, or a replayed run stopped early. When it changed the
   * tree the runs will see (`check --staged` setting work aside), it says so, with the project
   * as it is now: the batch is planned and looked up again.
   */
  readonly beforeRuns?: () => unknown;
}

/** What `beforeRuns` returns when it changed the tree. */
export interface TreeChanged {
  readonly treeChanged: true;
  readonly project: ProjectSnapshot | null;
}

function isTreeChanged(value: unknown): value is TreeChanged {
  return typeof value === "object" && value !== null && "treeChanged" in value;
}

export interface Engine {
  readonly config: ResolvedConfig;
  plan(batch: EditBatch, options?: PlanOptions): PlannedRun[];
  run(batch: EditBatch, options?: RunOptions): Promise<Outcome>;
}

/**
 * The one engine every surface uses: EditBatch → plan → execute → resync → Outcome.
 *
 * @example
 * const engine = createEngine({ root, config: { callbacks: [...] } });
 * const outcome = await engine.run({ root, files: [{ path: "a.ts", kind: "modified" }], origin: { surface: "api" } });
 */
export function createEngine(options: {
  root: string;
  config: CpilotConfig | ResolvedConfig;
}): Engine {
  const config =
    "source" in options.config ? options.config : resolveConfig(options.config, options.root);
  const semaphore = new Semaphore(config.concurrency);

  // A file in a virtualenv, node_modules or another repository is never handed to a
  // callback: a fixer given one rewrites what is not the project's.
  const planOwn = (
    batch: EditBatch,
    planOptions: PlanOptions,
    project?: ProjectSnapshot,
  ): [PlannedRun[], ReadonlyMap<string, string> | undefined] => {
    const toggles = readToggles(config.root);
    const active = config.callbacks.filter((cb) => isActive(cb, toggles));
    if (active.length === 0) return [[], undefined];
    const tracked = project?.trackedFiles() ?? undefined;
    const memory = tracked === undefined ? undefined : markerMemory(batch.root);
    const { own, left } = ownFiles(
      batch.root,
      batch.files,
      (f) => f.path,
      nestedConfigMarkers(batch.root, tracked),
      memory,
    );
    memory?.save();
    const planned = planBatch(
      own.length === batch.files.length ? batch : { ...batch, files: own },
      active,
      planOptions,
    );
    return [planned, left];
  };
  const plan = (batch: EditBatch, planOptions: PlanOptions = {}): PlannedRun[] =>
    planOwn(batch, planOptions)[0];

  const run = async (batch: EditBatch, runOptions: RunOptions = {}): Promise<Outcome> => {
    const [planned, left] = planOwn(batch, runOptions, runOptions.project);
    const leftOut = left === undefined ? [] : [...left].map(([f, why]) => leftOutNote(f, why));
    const looked = left === undefined ? {} : { leftOut: left };
    runOptions.onPlanned?.(planned);
    // A tree made ready for the runs (`check --staged`) may judge a left-out file its own.
    const again = async (): Promise<Outcome | null> => {
      const changed = await runOptions.beforeRuns?.();
      if (!isTreeChanged(changed)) return null;
      const { beforeRuns: _, project: __, ...rest } = runOptions;
      return run(batch, { ...rest, ...(changed.project ? { project: changed.project } : {}) });
    };
    const leftSome = left !== undefined && left.size > 0;
    if (planned.length === 0)
      return (
        (leftSome ? await again() : null) ?? {
          batch,
          ok: true,
          runs: [],
          resyncs: [],
          notes: leftOut,
          ...looked,
        }
      );
    mark("engine: runs planned");
    const prepared = prepareLookups(batch.root, planned, runOptions.project);
    await fetchRemoteResults(batch, prepared);
    mark("engine: results looked up");
    const waits = runOrder(planned);
    const replaysOnly = allReplayed(prepared);
    // a replayed run that stopped early runs again for what it did not reach (reachAgain)
    if (!replaysOnly || leftSome || prepared.some((p) => p.lookup?.record?.stoppedEarly)) {
      const outcome = await again();
      if (outcome !== null) return outcome;
    }
    // Only files some run is given can be rewritten in the batch's name; the rest is "tree".
    const plannedPaths =
      planned.length === 1 ? (planned[0]?.files ?? []) : planned.flatMap((p) => p.files);
    const dirtyBefore = runOptions.resyncTree && !replaysOnly ? dirtyFiles(batch.root) : null;
    // A batch of replays never loads the code that watches for rewrites.
    const resync = replaysOnly ? null : await import("./resync.ts");
    const before =
      resync === null
        ? null
        : await resync.snapshot(
            batch.root,
            dirtyBefore === null ? plannedPaths : [...plannedPaths, ...dirtyBefore],
            resync.deletedIn(batch),
            runOptions.contentSnapshotLimit,
          );
    mark("engine: files snapshotted, starting runs");
    const batchId = randomHex(6);
    const afterLooks = new AfterLooks(batch.root);
    const signal = runOptions.signal ?? runStop();
    const triggerRuns: RunResult[] = [];
    const triggerNotes: string[] = [];
    const triggerSink: TriggerSink = {
      runEnded(result) {
        triggerRuns.push(result);
        runOptions.onRunEnd?.(result);
      },
      note: (text) => triggerNotes.push(text),
    };
    const reruns: RunResult[] = [];
    const runOne = async (
      p: PlannedRun,
      i: number,
      about: Partial<Pick<RunResult, "reachAgainOf">> = {},
    ): Promise<RunResult> => {
      const ready = replaysOnly || (waits[i] ?? []).length === 0 ? prepared[i] : undefined;
      const result =
        ready !== undefined && !signal.aborted && isHit(ready.lookup)
          ? await replayRun(p, ready.lookup, ready.definition, {
              batch,
              ...(runOptions.onRunStart ? { onStart: runOptions.onRunStart } : {}),
            })
          : await (await import("./execute-run.ts")).executeRun(p, {
              ...(ready ? { prepared: ready } : {}),
              batch,
              batchId,
              signal,
              semaphore,
              afterLooks,
              triggerSink,
              ...(runOptions.extraEnv ? { extraEnv: runOptions.extraEnv } : {}),
              ...(runOptions.onRunStart ? { onStart: runOptions.onRunStart } : {}),
              ...(runOptions.triggerDepth !== undefined ? { depth: runOptions.triggerDepth } : {}),
              ...(runOptions.ownerPid !== undefined ? { ownerPid: runOptions.ownerPid } : {}),
            });
      let told = about.reachAgainOf ? { ...result, ...about } : result;
      // A cargo run stopped at old errors before the edited files: run again for their crates.
      const again = i >= 0 && !signal.aborted ? reachAgain(batch.root, p, result) : null;
      if (again !== null) {
        const rerun = await runOne(again.planned, -1, { reachAgainOf: again.why });
        reruns.push(rerun);
        const reachedAgain = { runId: rerun.id, status: rerun.status, crates: again.why.crates };
        told = { ...told, reachedAgain };
      }
      runOptions.onRunEnd?.(told);
      return told;
    };
    const ended: Promise<RunResult>[] = [];
    const allListed = Promise.resolve(); // every run's promise is in `ended` once this settles
    const running = Promise.all(
      planned.map((p, i) => {
        const mine = (async () => {
          await allListed;
          await Promise.allSettled((waits[i] ?? []).map((j) => ended[j]));
          return runOne(p, i);
        })();
        ended[i] = mine;
        return mine;
      }),
    );
    const mainRuns = await running.catch((err: unknown) => {
      if (resync !== null && before !== null) resync.dropSnapshot(before);
      throw err;
    });
    const runs = [...mainRuns, ...reruns, ...triggerRuns];
    mark("engine: runs ended");
    const dirtyAfter = dirtyBefore === null ? [] : (dirtyFiles(batch.root) ?? []);
    const resyncs =
      resync === null || before === null
        ? []
        : await resync.compareSnapshot(batch.root, before, dirtyAfter);
    const pruneBudget = Math.max(2, 2 * runs.length);
    bookkeep(batch.root, undefined, () => pruneRuns(batch.root, config.keepLogs, pruneBudget));
    mark("engine: resync compared");
    const remoteNotes = await settleRemoteResults(batch.origin.surface);
    const notes = [
      ...leftOut,
      ...runs
        .filter((r) => r.status === "replaced")
        .map((r) => `'${r.callback}' run ${r.id} ${r.summary}`),
      ...triggerNotes,
      // the remote cache's trouble is for the person running a check, not for an agent
      ...(batch.origin.surface === "check" ? remoteNotes : []),
    ];
    const ok = runs.every(
      (r) =>
        !r.blocking || r.status === "passed" || r.status === "silent" || r.status === "replaced",
    );
    return { batch, ok, runs, resyncs, notes, ...looked };
  };

  return { config, plan, run };
}

function leftOutNote(folder: string, why: string): string {
  return why.startsWith("its own ")
    ? `${folder}/ left out: ${why}`
    : `${folder}/ left out: ${why}, not the project's own files`;
}
