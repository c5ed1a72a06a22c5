import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EditBatch } from "./batch.ts";
import { chunkFiles } from "./chunk.ts";
import { describeExit, describeTimeout } from "./exit-words.ts";
import { type RunStatus, SILENT_EXIT_CODE } from "./outcome.ts";
import { RunOutput } from "./output.ts";
import { acquireOverlap, takeReplacedBy } from "./overlap.ts";
import type { PlannedRun } from "./plan.ts";
import { runFunction } from "./run-function.ts";
import { newRunId } from "./run-id.ts";
import { prepareLog, type StoredRun, saveRunRecord } from "./runs-store.ts";
import { commandLine, scriptEnv, scriptStdin } from "./script-input.ts";
import type { Semaphore } from "./semaphore.ts";
import { spawnGroup } from "./spawn.ts";

export interface ExecuteOptions {
  readonly batch: EditBatch;
  /** Identifies the batch across processes, so `replace` never kills a sibling run. */
  readonly batchId: string;
  readonly signal: AbortSignal;
  readonly semaphore: Semaphore;
  readonly extraEnv?: Readonly<Record<string, string>>;
  readonly onStart?: (run: { id: string; callback: string; files: readonly string[] }) => void;
  /** Fixed id for this run (a background run announced before it starts). */
  readonly runId?: string;
}

interface RawEnd {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  killed: boolean;
  aborted: boolean;
  spawnError: string | null;
}

/** Execute one planned run: take its overlap lock and a slot, run it, record the result. */
export async function executeRun(planned: PlannedRun, options: ExecuteOptions): Promise<StoredRun> {
  const { callback, files } = planned;
  const root = options.batch.root;
  const id = options.runId ?? newRunId();
  const logPath = prepareLog(root, id);
  const abort = new AbortController();
  const forward = (): void => abort.abort(options.signal.reason);
  if (options.signal.aborted) forward();
  else options.signal.addEventListener("abort", forward, { once: true });

  const lock =
    callback.overlap === "parallel"
      ? null
      : await acquireOverlap({
          root,
          callback: callback.name,
          mode: callback.overlap,
          runId: id,
          batchId: options.batchId,
          signal: abort.signal,
          abort,
        });
  const release = await options.semaphore.acquire();
  const startedAt = Date.now();
  const output = new RunOutput(logPath);
  let end: RawEnd = {
    exitCode: null,
    signal: null,
    timedOut: false,
    killed: false,
    aborted: true,
    spawnError: null,
  };
  try {
    if (!abort.signal.aborted) {
      options.onStart?.({ id, callback: callback.name, files });
      end = await runBody(planned, id, output, abort.signal, options, (pgid) =>
        lock?.setChild(pgid),
      );
    }
  } finally {
    output.close();
    release();
    lock?.release();
    options.signal.removeEventListener("abort", forward);
  }
  const replacedBy = takeReplacedBy(root, id);
  const { status, summary } = judge(end, callback.timeoutMs, replacedBy);
  const result: StoredRun = {
    id,
    callback: callback.name,
    files,
    blocking: callback.blocking,
    status,
    exitCode: end.exitCode,
    signal: end.signal,
    durationMs: Date.now() - startedAt,
    logPath,
    tail: output.tail(),
    summary,
    successMessage: callback.successMessage,
    startedAt,
  };
  saveRunRecord(root, result);
  return result;
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
    });
    return { ...r, signal: null, killed: false, spawnError: null };
  }
  const tmpDir = join(root, ".cpilot", "tmp");
  mkdirSync(tmpDir, { recursive: true });
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
    const nulListPath = join(tmpDir, `${id}-${index}.nul`);
    writeFileSync(nulListPath, files.length > 0 ? `${files.join("\0")}\0` : "");
    const input = {
      runId: id,
      callback,
      batch: options.batch,
      files,
      nulListPath,
      ...(options.extraEnv ? { extraEnv: options.extraEnv } : {}),
    };
    const { command, args } = commandLine(callback.run, files, callback.name);
    try {
      last = await spawnGroup({
        command,
        args,
        cwd: callback.cwd,
        env: scriptEnv(input),
        stdin: scriptStdin(input),
        timeoutMs: Math.max(1, deadline - Date.now()),
        signal,
        output,
        onSpawn,
      });
    } finally {
      rmSync(nulListPath, { force: true });
    }
    if (last.exitCode !== 0) break;
  }
  return last;
}

function judge(
  end: RawEnd,
  timeoutMs: number,
  replacedBy: string | null,
): { status: RunStatus; summary: string } {
  if (replacedBy !== null)
    return { status: "replaced", summary: `stopped: replaced by run ${replacedBy}` };
  if (end.timedOut) return { status: "timed_out", summary: describeTimeout(timeoutMs, end.killed) };
  if (end.spawnError !== null)
    return { status: "failed", summary: `could not start (${end.spawnError})` };
  if (end.aborted)
    return { status: "skipped", summary: "stopped before it finished (interrupted)" };
  if (end.exitCode === 0) return { status: "passed", summary: "exit 0" };
  if (end.exitCode === SILENT_EXIT_CODE)
    return { status: "silent", summary: `exit ${SILENT_EXIT_CODE} (nothing to do)` };
  return { status: "failed", summary: describeExit(end.exitCode, end.signal) };
}
