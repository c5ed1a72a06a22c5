import { Buffer } from "node:buffer";
import { unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ProjectSnapshot } from "../cache/content.ts";
import { definitionKey } from "../cache/key.ts";
import { runKey } from "../cache/run-key.ts";
import type { CheckRecord } from "../cache/store.ts";
import { diagnoseFinishedRun, HOOK_READ } from "../diagnostics/diagnose-finished.ts";
import type { EditBatch } from "../model/batch.ts";
import type { RunStatus } from "../model/outcome.ts";
import { collectYoungGarbage } from "../platform/bun.ts";
import { ownStartTime } from "../platform/process-start.ts";
import { RunOutput } from "../platform/run-output.ts";
import { spawnGroup } from "../platform/spawn-group.ts";
import { bookkeep, noteStateTrouble } from "../util/bookkeeping.ts";
import { encodeBytes, hasEscapedBytes } from "../util/path-bytes.ts";
import { stateDir } from "../util/state-dir.ts";
import { STATE } from "../util/state-layout.ts";
import { mark } from "../util/trace.ts";
import type { AfterLooks } from "./after-looks.ts";
import type { Prepared } from "./batch-lookups.ts";
import { chunkFiles } from "./chunk.ts";
import { namesFromCwd } from "./cwd-names.ts";
import { describeExit, describeTimeout } from "./exit-words.ts";
import { acquireOverlap, type OverlapLock, stopHostlessRuns, takeReplacedBy } from "./overlap.ts";
import type { PlannedRun } from "./plan.ts";
import { byteExactLaunch } from "./raw-names.ts";
import { recordOf } from "./record-of.ts";
import { shareRemoteResult } from "./remote-results.ts";
import { diagnoseInput, isHit, replayRun } from "./replay-run.ts";
import { cacheable, lookUp, readsOf, remember } from "./result-cache.ts";
import { runFunction } from "./run-function.ts";
import { newRunId } from "./run-id.ts";
import { checksWholeProject, readsBeyondItsFiles } from "./run-scope.ts";
import {
  openPendingRecord,
  type PendingRecord,
  type RunningRecord,
  registerRunning,
  stopMarkerPath,
  takeStopReason,
} from "./running.ts";
import { prepareLog, runsDir, type StoredRun, saveRunRecord } from "./runs-store.ts";
import { commandLine, scriptEnv, scriptStdin } from "./script-input.ts";
import type { Semaphore } from "./semaphore.ts";
import { SILENT_EXIT_CODE } from "./silent-exit.ts";
import { toolOf } from "./tool-exit-words.ts";
import { attachTriggers } from "./triggers/attach.ts";
import type { TriggerInput, TriggerSink } from "./triggers/types.ts";
import { spawnWatchdog } from "./watchdog.ts";

mark("engine: run code loaded");

export interface ExecuteOptions {
  readonly batch: EditBatch;
  /** Identifies the batch across processes, so `replace` never kills a sibling run. */
  readonly batchId: string;
  readonly signal: AbortSignal;
  readonly semaphore: Semaphore;
  readonly extraEnv?: Readonly<Record<string, string>>;
  readonly onStart?: (run: { id: string; callback: string; files: readonly string[] }) => void;
  readonly prepared?: Prepared;
  readonly runId?: string;
  readonly depth?: number;
  readonly triggerInput?: TriggerInput;
  readonly triggerSink?: TriggerSink;
  readonly releaseAtEnd?: () => void;
  readonly ownerPid?: number;
  /** The batch's shared look at the project once runs end. */
  readonly afterLooks?: AfterLooks;
}

function envInt(value: string | undefined): number | undefined {
  const n = Number(value);
  return value !== undefined && value !== "" && Number.isInteger(n) && n >= 0 ? n : undefined;
}

interface RawEnd {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  killed: boolean;
  aborted: boolean;
  spawnError: string | null;
}

/**
 * Execute one planned run: take its overlap lock and a slot, run it, record the result.
 * With hooks, the result comes back once the work they started is done too.
 */
export async function executeRun(planned: PlannedRun, options: ExecuteOptions): Promise<StoredRun> {
  const { callback, files } = planned;
  const root = options.batch.root;
  const wholeProject = checksWholeProject(callback.run);
  const keyedWhole = readsBeyondItsFiles(callback.run);
  const definition = options.prepared?.definition ?? definitionKey(root, callback);
  const cache = options.signal.aborted
    ? null
    : options.prepared !== undefined
      ? options.prepared.lookup
      : cacheable(callback, options.triggerInput !== undefined, wholeProject)
        ? lookUp(root, definition, files, keyedWhole, readsOf(callback))
        : null;
  if (isHit(cache)) return replayRun(planned, cache, definition, options);
  const id = options.runId ?? newRunId();
  // Bookkeeping that fails (a full disk) is noted and never stops the run: its result
  // reaches the agent whatever happens to state.
  const preparedLog = bookkeep<string | null>(root, null, () => prepareLog(root, id));
  const logPath = preparedLog ?? join(runsDir(root), `${id}.log`);
  // Keyed by the content before the run starts: an edit made while it runs is not recorded
  // under its findings.
  const readBefore =
    cache?.key ??
    runKey(root, definition, files, keyedWhole, readsOf(callback), options.prepared?.project);
  const abort = new AbortController();
  const depth =
    options.depth ??
    envInt(options.extraEnv?.CP_HOOK_DEPTH) ??
    envInt(process.env.CP_HOOK_DEPTH) ??
    0;
  let stoppedBy: string | null = null;
  let output: RunOutput | null = null;
  const watcher = attachTriggers({
    callback,
    planned,
    runId: id,
    batch: options.batch,
    batchId: options.batchId,
    depth,
    sink: options.triggerSink,
    tail: () => output?.tail() ?? [],
    stop: (reason) => {
      stoppedBy ??= reason;
      abort.abort(new Error(reason));
    },
    launch: (next, extra) => {
      const { runId: _fixed, prepared: _theirs, ...rest } = options;
      return executeRun(next, {
        ...rest,
        depth: extra.triggerInput.depth,
        triggerInput: extra.triggerInput,
        releaseAtEnd: extra.releaseAtEnd,
      });
    },
  });
  const forward = (): void => abort.abort(options.signal.reason);
  if (options.signal.aborted) forward();
  else options.signal.addEventListener("abort", forward, { once: true });

  // What a killed host left of this callback is stopped first, so a second copy never runs
  // beside it; this run's record exists before its process, so a kill right after the spawn
  // leaves it findable too.
  await stopHostlessRuns(root, callback.name).catch((err: unknown) => noteStateTrouble(root, err));
  const fields = recordFields(planned, id, depth, options);
  const pending = bookkeep(root, null, () => openPendingRecord(root, fields));
  let lock: OverlapLock | null = null;
  // The session-start check takes no lock: an agent's own run never waits behind it.
  const background = process.env.CPILOT_BASE_CHECK === "1";
  if (pending !== null && callback.overlap !== "parallel" && !background) {
    try {
      lock = await acquireOverlap({
        root,
        callback: callback.name,
        mode: callback.overlap,
        runId: id,
        batchId: options.batchId,
        holderFile: pending.path,
        signal: abort.signal,
        abort,
      });
    } catch (err) {
      noteStateTrouble(root, err);
    }
  }
  const release = await options.semaphore.acquire();
  const startedAt = Date.now();
  // no log where its folder could not be made (never through a refused .cpilot symlink)
  output = new RunOutput(preparedLog, watcher?.onLine);
  let end: RawEnd = {
    exitCode: null,
    signal: null,
    timedOut: false,
    killed: false,
    aborted: true,
    spawnError: null,
  };
  let spawned = false;
  let runningRecord: string | undefined;
  try {
    if (!abort.signal.aborted) {
      options.onStart?.({ id, callback: callback.name, files });
      watcher?.started();
      end = await runBody(planned, id, output, abort.signal, { ...options, depth }, (pgid) => {
        spawned = true;
        runningRecord = bookkeep(root, undefined, () => supervise(root, id, pgid, fields, pending));
      }).catch((err: unknown) => ({
        ...end,
        aborted: false,
        spawnError: err instanceof Error ? err.message : String(err),
      }));
    }
  } finally {
    output.close();
    if (output.trouble !== null) noteStateTrouble(root, output.trouble);
    watcher?.ended();
    release();
    bookkeep(root, undefined, () => lock?.release());
    pending?.close();
    options.releaseAtEnd?.();
    options.signal.removeEventListener("abort", forward);
  }
  const replacedBy = lock === null ? null : bookkeep(root, null, () => takeReplacedBy(root, id));
  const stopReason = spawned ? bookkeep(root, null, () => takeStopReason(root, id)) : null;
  const { status, summary } = judge(
    end,
    callback.timeoutMs,
    replacedBy,
    stopReason,
    stoppedBy,
    toolOf(callback.run),
  );
  const after =
    options.afterLooks !== undefined ? await options.afterLooks.look() : new ProjectSnapshot(root);
  const diagnosed = await diagnoseFinishedRun({
    ...diagnoseInput(planned, options.batch, { logPath, status, wholeProject, definition }),
    ...(readBefore !== null ? { readBefore } : {}),
    project: after,
    // A hook call is paid per edit: it reads only a dense output's first part.
    ...(options.batch.origin.surface === "hook" ? HOOK_READ : {}),
  });
  const diagnostics = diagnosed?.diagnostics;
  const durationMs = Date.now() - startedAt;
  if (cache !== null) {
    const recorded = bookkeep<CheckRecord | undefined>(root, undefined, () =>
      remember(root, callback, cache.key, after, {
        status,
        exitCode: end.exitCode,
        durationMs,
        summary,
        tail: output?.tail() ?? [],
        diagnostics,
        // a replay could not tell that the tool stopped: it runs again
        cut: diagnosed?.cut === true || diagnosed?.stopped === true,
      }),
    );
    if (recorded !== undefined) shareRemoteResult(options.batch.origin.surface, recorded);
  }
  const result: StoredRun = {
    id,
    callback: callback.name,
    files,
    blocking: callback.blocking,
    status,
    exitCode: end.exitCode,
    signal: end.signal,
    durationMs,
    logPath,
    tail: output.tail(),
    summary,
    successMessage: callback.successMessage,
    ...(diagnostics ? { diagnostics } : {}),
    ...(diagnosed?.cut ? { diagnosticsCut: true } : {}),
    ...(diagnosed?.hidden ? { diagnosticsHidden: true } : {}),
    ...(diagnosed && diagnosed.unreached.length > 0 ? { unreached: diagnosed.unreached } : {}),
    startedAt,
    per: callback.per,
    ...(options.triggerInput
      ? {
          startedBy: {
            runId: options.triggerInput.parentRunId,
            callback: options.triggerInput.parentCallback,
            hook: options.triggerInput.rule,
            depth: options.triggerInput.depth,
          },
        }
      : {}),
  };
  bookkeep(root, undefined, () =>
    saveRunRecord(root, recordOf(result), pending?.path ?? runningRecord),
  );
  if (watcher !== null) {
    watcher.exited(result);
    await watcher.settled();
  }
  return result;
}

function recordFields(
  planned: PlannedRun,
  runId: string,
  depth: number,
  options: ExecuteOptions,
): Omit<RunningRecord, "pid" | "pidStarted"> {
  const { callback } = planned;
  return {
    runId,
    callback: callback.name,
    session: options.batch.origin.session ?? null,
    ownerPid: options.ownerPid ?? envInt(process.env.CP_OWNER_PID) ?? process.pid,
    hostPid: process.pid,
    hostStarted: ownStartTime(),
    batchId: options.batchId,
    startedAt: Date.now(),
    command: typeof callback.run === "string" ? callback.run : JSON.stringify(callback.run),
    blocking: callback.blocking,
    persist: callback.persist === true && !callback.blocking,
    depth,
  };
}

/**
 * Record a spawned process group for `cpilot ps` / `cpilot stop`, and guard a non-blocking
 * run with a watchdog so it never outlives its owner (unless `persist`).
 */
function supervise(
  root: string,
  runId: string,
  pgid: number,
  fields: Omit<RunningRecord, "pid" | "pidStarted">,
  pending: PendingRecord | null,
): string {
  let recordPath: string;
  if (pending === null) {
    recordPath = registerRunning(root, { ...fields, startedAt: Date.now(), pid: pgid });
  } else {
    pending.spawned(pgid);
    recordPath = pending.path;
  }
  if (!fields.blocking && !fields.persist) {
    spawnWatchdog({
      ownerPid: fields.ownerPid,
      pgid,
      recordPath,
      stopMarkerPath: stopMarkerPath(root, runId),
      runId,
    });
  }
  return recordPath;
}

async function runBody(
  planned: PlannedRun,
  id: string,
  output: RunOutput,
  signal: AbortSignal,
  options: ExecuteOptions,
  onSpawn: (pgid: number) => void,
): Promise<RawEnd> {
  const { callback } = planned;
  const root = options.batch.root;
  if (typeof callback.run === "function") {
    const r = await runFunction({
      fn: callback.run,
      files: planned.files,
      root,
      runId: id,
      callback: callback.name,
      timeoutMs: callback.timeoutMs,
      signal,
      output,
      ...(options.triggerInput ? { hook: options.triggerInput } : {}),
    });
    return { ...r, signal: null, killed: false, spawnError: null };
  }
  const deadline = Date.now() + callback.timeoutMs;
  let last: RawEnd = {
    exitCode: 0,
    signal: null,
    timedOut: false,
    killed: false,
    aborted: false,
    spawnError: null,
  };
  const chunks = chunkFiles(planned.files);
  for (const [index, files] of chunks.entries()) {
    // The last process's input is garbage now: collecting it lowers the peak memory of a run
    // over many files.
    if (index > 0) await collectYoungGarbage();
    const nulListPath = writeNulList(root, `${id}-${index}.nul`, files);
    const input = {
      runId: id,
      callback,
      batch: options.batch,
      files,
      nulListPath,
      ...(options.extraEnv ? { extraEnv: options.extraEnv } : {}),
      depth: options.depth ?? 0,
      ...(options.triggerInput ? { hook: options.triggerInput } : {}),
    };
    const env = scriptEnv(input);
    const argvFile = `${nulListPath}.argv`;
    const stdin = scriptStdin(input);
    const launch = async (
      line: { command: string; args: string[] },
      lineEnv: NodeJS.ProcessEnv,
    ) => {
      const { command, args, wroteArgvFile } = byteExactLaunch(
        line.command,
        line.args,
        lineEnv,
        argvFile,
      );
      try {
        return await spawnGroup({
          command,
          args,
          cwd: callback.cwd,
          env: lineEnv,
          stdin,
          timeoutMs: Math.max(1, deadline - Date.now()),
          signal,
          output,
          onSpawn,
          marker: `CP_RUN_ID=${id}`,
        });
      } finally {
        if (wroteArgvFile) removeIfThere(argvFile);
      }
    };
    try {
      const line = commandLine(
        callback.run,
        namesFromCwd(root, callback.cwd, files),
        callback.name,
      );
      if (line.viaBash === undefined) last = await launch(line, env);
      else {
        // bash would have set PWD to the folder it runs in
        last = await launch(line, { ...env, PWD: callback.cwd });
        // not found or not runnable: bash says so, as it always did ("command not found", 127)
        if (last.spawnError !== null) last = await launch(line.viaBash, env);
      }
    } finally {
      removeIfThere(nulListPath);
    }
    if (last.exitCode !== 0) break;
  }
  return last;
}

function removeIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

/** The run's files as a NUL-separated list under `.cpilot/tmp`, or the system's temp folder when that cannot be written. */
function writeNulList(root: string, name: string, files: readonly string[]): string {
  // the names' own bytes, non-UTF-8 ones included (see path-bytes.ts)
  const joined = files.length === 0 ? "" : `${files.join("\0")}\0`;
  const text = hasEscapedBytes(joined)
    ? Buffer.concat(files.flatMap((f) => [encodeBytes(f), Buffer.from([0])]))
    : Buffer.from(joined, "utf8");
  try {
    const path = join(stateDir(root, STATE.tmp), name);
    writeFileSync(path, text);
    return path;
  } catch (err) {
    noteStateTrouble(root, err);
    const path = join(tmpdir(), `cpilot-${process.pid}-${name}`);
    writeFileSync(path, text, { mode: 0o600 });
    return path;
  }
}

function judge(
  end: RawEnd,
  timeoutMs: number,
  replacedBy: string | null,
  stopReason: string | null,
  stoppedByTrigger: string | null,
  tool: string | null,
): { status: RunStatus; summary: string } {
  if (replacedBy !== null)
    return { status: "replaced", summary: `stopped: replaced by run ${replacedBy}` };
  if (stopReason !== null) return { status: "skipped", summary: `stopped: ${stopReason}` };
  if (stoppedByTrigger !== null && (end.aborted || end.exitCode !== 0))
    return { status: "failed", summary: stoppedByTrigger };
  if (end.timedOut) return { status: "timed_out", summary: describeTimeout(timeoutMs, end.killed) };
  if (end.spawnError !== null)
    return { status: "failed", summary: `could not start (${end.spawnError})` };
  if (end.aborted)
    return { status: "skipped", summary: "stopped before it finished (interrupted)" };
  if (end.exitCode === 0) return { status: "passed", summary: "exit 0" };
  if (end.exitCode === SILENT_EXIT_CODE)
    return { status: "silent", summary: `exit ${SILENT_EXIT_CODE} (nothing to do)` };
  return { status: "failed", summary: describeExit(end.exitCode, end.signal, tool) };
}
