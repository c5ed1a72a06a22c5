import { join, relative } from "node:path";
import { agentSettings } from "../config/agent-settings.ts";
import { CONFIG_NAMES } from "../config/find.ts";
import { loadProjectConfigSupervised } from "../config/supervised-load.ts";
import { onlyPreexisting } from "../diagnostics/agent-view.ts";
import { toSarif } from "../diagnostics/export-sarif.ts";
import { createEngine, type RunOptions } from "../engine/engine.ts";
import { nestedConfigFolders } from "../engine/nested-configs.ts";
import { type ShardSpec, splitShard } from "../match/shard.ts";
import type { EditBatch, FileChange } from "../model/batch.ts";
import type { Outcome } from "../model/outcome.ts";
import { collectGarbage } from "../platform/bun.ts";
import { keepStdoutForProtocol, writeOut } from "../platform/stdio.ts";
import { checkFormat, writeCheckExport } from "../ui/check-export.ts";
import { printSummary, toJson } from "../ui/check-report.ts";
import { Progress } from "../ui/progress.ts";
import { renderRunLines } from "../ui/run-line.ts";
import { outcomeSeenFrom, pathMove, repositoryTop, runSeenFrom } from "../ui/seen-from.ts";
import { colorEnabled, say } from "../ui/style.ts";
import { takeStateTrouble } from "../util/bookkeeping.ts";
import { mark } from "../util/trace.ts";
import { assertKnownNames } from "./_common.ts";
import { readDurations } from "./check-durations.ts";
import { type AllStart, selectFiles } from "./check-files.ts";
import type { StagedCheck, StagedStart } from "./check-staged-contract.ts";
import {
  beginWholeRecording,
  finishWholeRecording,
  printKeptSummary,
} from "./check-whole-record.ts";
import { failOnChangeActive, failOnChanges } from "./fail-on-change.ts";

/** A staged check that read only the index surveys the tree before a run; a large check collects listing's garbage. */
function beforeRuns(
  staged: StagedCheck["beforeRuns"],
  collect: boolean,
): Pick<RunOptions, "beforeRuns"> {
  if (staged === undefined) return collect ? { beforeRuns: collectGarbage } : {};
  return {
    beforeRuns: async () => {
      const changed = await staged();
      if (collect) collectGarbage();
      return changed;
    },
  };
}

/** Past this many files a terminal check only names rewritten files: reading them all first costs more than line counts are worth. */
const TERMINAL_SNAPSHOT_LIMIT = 100;

/**
 * From this many files, listing's garbage is collected before the runs start, which lowers a
 * large check's peak memory while they run; a check whose every result is replayed exits
 * soon instead.
 */
const COLLECT_AFTER_LISTING = 10_000;

export interface CheckRequest {
  readonly paths: string[];
  readonly all: boolean;
  readonly changedRef: string | undefined;
  readonly only: string[] | undefined;
  readonly skip: string[] | undefined;
  readonly dryRun: boolean;
  readonly json: boolean;
  readonly format: string | undefined;
  readonly config: string | undefined;
  readonly failOnChange: boolean;
  /** Relative to HEAD (adopting cpilot on old errors). */
  readonly newOnly?: boolean;
  readonly stagedStart: StagedStart | null;
  readonly allStart: AllStart | null;
  readonly shard: ShardSpec | null;
  /** To balance the shards. */
  readonly durations: string | undefined;
}

interface Judged {
  /** Relative to where the check started. */
  readonly config: string;
  readonly outcome: Outcome;
}

export async function runCheck(
  request: CheckRequest,
  options: {
    signal: AbortSignal;
    cwd: string;
    judged?: Judged[];
    top?: string;
    /** Where the person works: the terminal names paths relative to it, as git does. */
    seenFrom?: string;
  },
): Promise<number> {
  const format = checkFormat(request.format, request.json);
  const json = request.json || format === "json";
  // JSON and SARIF are for programs: the config's own prints (at load, in its hooks) go to stderr.
  if (json || format === "sarif") keepStdoutForProtocol();
  const config = await loadProjectConfigSupervised(options.cwd, request.config, options.signal);
  mark("config loaded");
  const names = config.callbacks.map((c) => c.name);
  assertKnownNames(request.only ?? [], names, "use --only");
  assertKnownNames(request.skip ?? [], names, "use --skip");

  const root = config.root;
  const seenFrom = options.seenFrom ?? options.cwd;
  const move = pathMove(root, seenFrom) ?? ((path: string) => path);
  const staged = request.stagedStart ? await request.stagedStart.open(config) : null;
  const selected =
    staged?.files ??
    (request.allStart?.root === root ? await request.allStart.files : null) ??
    (await selectFiles(root, options.cwd, request.paths, {
      staged: false,
      all: request.all,
      changedRef: request.changedRef,
    }));
  const shard = request.shard ? shardOf(selected, request.shard, request.durations) : null;
  const files = shard ? selected.filter((f) => shard.mine.has(f.path)) : selected;
  mark("files selected");
  if (staged && files.length === 0) {
    if (json)
      writeOut(
        `${JSON.stringify({ ok: true, runs: [], resyncs: [], notes: ["nothing staged"] })}\n`,
      );
    else say("cpilot: nothing staged, nothing to check");
    return 0;
  }
  // The default `--changed` found nothing: say so in words, not "no callback matches 0 files".
  if (
    !staged &&
    !json &&
    format !== "sarif" &&
    selected.length === 0 &&
    !request.all &&
    request.paths.length === 0
  ) {
    say(
      `cpilot: nothing changed since ${request.changedRef ?? "HEAD"}, nothing to check (\`cpilot check --all\` checks every file)`,
    );
    return 0;
  }
  const failOnChange = failOnChangeActive(config.source.failOnChange, request.failOnChange);
  const batch: EditBatch = { root, files, origin: { surface: "check" } };
  const engine = createEngine({ root, config });
  const planOptions = {
    ...(request.only ? { only: request.only } : {}),
    ...(request.skip ? { skip: request.skip } : {}),
  };

  if (request.dryRun) {
    const planned = engine.plan(batch, planOptions);
    if (json) {
      const runs = planned.map((p) => ({
        callback: p.callback.name,
        files: p.files,
        blocking: p.callback.blocking,
      }));
      writeOut(`${JSON.stringify({ ok: true, dryRun: true, runs })}\n`);
    } else {
      say(
        `cpilot check --dry-run: ${files.length} file${files.length === 1 ? "" : "s"}, ${planned.length} run${planned.length === 1 ? "" : "s"} planned`,
      );
      for (const p of planned)
        say(
          `  ${p.callback.name}: ${p.files.map((f) => JSON.stringify(move(f)).slice(1, -1)).join(" ")}`,
        );
    }
    return 0;
  }

  const project =
    staged?.project ?? (request.allStart?.root === root ? await request.allStart.project : null);
  const color = colorEnabled();
  // a check that may be replayed whole next time keeps what it printed and what its keys read
  const wholeStart =
    request.allStart?.root === root && format === "text" ? request.allStart.whole : undefined;
  const recording = wholeStart ? beginWholeRecording(files) : undefined;
  const progress = new Progress();
  const started = Date.now();
  let ran: Outcome | null = null;
  let combined = true;
  const shown = new Set<string>(); // diagnostics printed under an earlier run: not again
  // what each run is given, for the staged files' watch (see check-staged.ts)
  const fixers = new Set(config.callbacks.filter((c) => c.fixes).map((c) => c.name));
  const runFiles = new Map<string, { files: readonly string[]; fixer: boolean }>();
  const { tailLines } = agentSettings(config.source.agent); // the raw tail: as agents see it
  try {
    ran = await engine.run(batch, {
      ...planOptions,
      signal: options.signal,
      resyncTree: config.source.resync === "tree" || failOnChange,
      ...(project ? { project } : {}),
      ...beforeRuns(staged?.beforeRuns, files.length >= COLLECT_AFTER_LISTING),
      // a terminal shows a rewrite as a name and line counts: not worth reading every file
      // of a large check first (CI and --json show the diffs: those keep the full snapshot)
      ...(failOnChange || json ? {} : { contentSnapshotLimit: TERMINAL_SNAPSHOT_LIMIT }),
      onPlanned: (runs) => progress.setTotal(runs.length),
      onRunStart: (r) => {
        if (staged) {
          const fixer = fixers.has(r.callback);
          runFiles.set(r.id, { files: r.files, fixer });
          staged.runStarted(r.files, fixer);
        }
        progress.start(r.id, r.callback);
      },
      onRunEnd: (r) => {
        const run = runFiles.get(r.id);
        if (staged && run) staged.runEnded(run.files, run.fixer, r.callback);
        progress.end(r.id);
        if (!json)
          for (const line of renderRunLines(runSeenFrom(r, root, seenFrom), color, {
            tailLines,
            seen: shown,
          })) {
            progress.log(line);
            recording?.lines.push(line);
          }
      },
    });
  } finally {
    progress.stop();
    // set-aside work goes back whatever happened; fixes are staged unless interrupted
    if (staged) {
      combined = await staged.finish({ aborted: ran === null || options.signal.aborted });
    }
  }
  let outcome: Outcome = failOnChange ? failOnChanges(ran) : ran;
  if (!combined) outcome = { ...outcome, ok: false };
  if (request.newOnly === true && !outcome.ok && combined)
    outcome = { ...outcome, ok: failsOnNothingNew(outcome) };
  const shardMark = shard?.mark;
  const top = options.top ?? root;
  const judged: Judged[] = options.judged ?? [];
  judged.push({ config: relative(top, config.path) || config.path, outcome });
  const nested =
    !staged &&
    !shard &&
    request.paths.length === 0 &&
    (!request.all || holdsNestedConfig(outcome.leftOut, files));
  // a package's check inside a JSON or SARIF one: its results join the caller's document
  if (options.judged !== undefined && (json || format === "sarif")) {
    if (!json)
      printSummary(outcomeSeenFrom(outcome, seenFrom), files.length, Date.now() - started, color);
    return checkAfterNested(
      outcome,
      nested ? await checkNested(request, options, root, files, outcome, judged, top) : 0,
    );
  }
  const inPackagesMachine =
    nested && (json || format === "sarif")
      ? await checkNested(request, options, root, files, outcome, judged, top)
      : 0;
  if (json)
    writeOut(
      `${JSON.stringify({ ...judgedJson(judged, top), ...(shardMark ? { shard: shardMark } : {}) })}\n`,
    );
  else if (failOnChange && outcome.resyncs.length > 0) {
    for (const r of outcome.resyncs) say(r.diff);
  }
  if (!json) {
    const elapsed = Date.now() - started;
    const print = () =>
      printSummary(outcomeSeenFrom(outcome, seenFrom), files.length, elapsed, color);
    if (recording) printKeptSummary(recording, elapsed, print);
    else print();
  }
  if (shard && !json)
    say(
      `cpilot: shard ${request.shard?.index}/${request.shard?.count}: ${files.length} of ${selected.length} files`,
    );
  if (format === "sarif") writeJudgedSarif(judged, shardMark);
  else
    writeCheckExport(
      outcome,
      format,
      process.env,
      shardMark ? { cpilotShard: shardMark } : undefined,
    );
  const trouble = takeStateTrouble(config.root);
  if (trouble !== null) process.stderr.write(`${trouble}\n`);
  if (wholeStart && recording)
    finishWholeRecording(wholeStart, recording, {
      config,
      outcome,
      project,
      aborted: options.signal.aborted,
      trouble: trouble !== null,
      nested,
      failOnChange,
    });
  mark("check reported");
  if (options.signal.aborted) return 130;
  // a shard checks its part of the root's files only: each package would run in every shard
  const inPackages =
    json || format === "sarif"
      ? inPackagesMachine
      : nested
        ? await checkNested(request, options, root, files, outcome)
        : 0;
  return checkAfterNested(outcome, inPackages);
}

function checkAfterNested(outcome: Outcome, inPackages: number): number {
  return outcome.ok && inPackages === 0 ? 0 : inPackages === 130 ? 130 : 1;
}

/**
 * The root's fields as before, each run naming its config; the packages' runs follow. Every
 * path is relative to where the check started, as the `config` fields are.
 */
function judgedJson(judged: readonly Judged[], top: string): Record<string, unknown> {
  const docs = judged.map((j) => ({
    config: j.config,
    doc: toJson(outcomeSeenFrom(j.outcome, top)),
  }));
  const first = docs[0]!;
  return {
    ...first.doc,
    ok: docs.every((d) => d.doc.ok),
    config: first.config,
    runs: docs.flatMap((d) => d.doc.runs.map((r) => ({ ...r, config: d.config }))),
    resyncs: docs.flatMap((d) => d.doc.resyncs.map((r) => ({ ...r, config: d.config }))),
    notes: docs.flatMap((d) => d.doc.notes),
  };
}

/** Paths relative to the repository's top, where code scanning resolves them. */
function writeJudgedSarif(judged: readonly Judged[], shardMark?: Record<string, unknown>): void {
  const top = repositoryTop(judged[0]!.outcome.batch.root);
  const runs = judged.flatMap((j) =>
    (toSarif(outcomeSeenFrom(j.outcome, top).runs, top).runs as Record<string, unknown>[]).map(
      (run) => ({
        ...run,
        properties: { ...(run.properties as object | undefined), cpilotConfig: j.config },
      }),
    ),
  );
  const log = { ...toSarif([], top), runs };
  writeOut(
    `${JSON.stringify(shardMark ? { ...log, properties: { cpilotShard: shardMark } } : log, null, 2)}\n`,
  );
}

const CONFIG_FILE_NAMES = new Set(CONFIG_NAMES.map((name) => name.toLowerCase()));

/** Only a tracked config makes a package its own: without such a name the folder walk is skipped. */
/**
 * Does a folder below the root hold a config of its own? The engine's pass left such folders
 * out and says so (`leftOut`); only when it made none (no callback active) are the files read.
 */
function holdsNestedConfig(
  leftOut: ReadonlyMap<string, string> | undefined,
  files: readonly FileChange[],
): boolean {
  if (leftOut === undefined) return namesAConfig(files);
  for (const why of leftOut.values()) if (why.startsWith("its own ")) return true;
  return false;
}

function namesAConfig(files: readonly FileChange[]): boolean {
  return files.some((f) => {
    const slash = f.path.lastIndexOf("/");
    return slash !== -1 && CONFIG_FILE_NAMES.has(f.path.slice(slash + 1).toLowerCase());
  });
}

/** The nearest config decides; returns the worst exit code. */
async function checkNested(
  request: CheckRequest,
  options: { signal: AbortSignal; cwd: string; seenFrom?: string },
  root: string,
  files: readonly FileChange[],
  outcome: Outcome,
  judged?: Judged[],
  top?: string,
): Promise<number> {
  let worst = 0;
  // the folders the root's check left out to their own config: its engine found them already
  for (const folder of nestedConfigFolders(root, files, outcome.leftOut)) {
    if (options.signal.aborted) return 130;
    const move = pathMove(root, options.seenFrom ?? options.cwd);
    say(`\ncpilot: ${move === null ? folder : move(folder)}/ with its own config`);
    const code = await runCheck(
      { ...request, config: undefined, allStart: null, stagedStart: null },
      {
        signal: options.signal,
        cwd: join(root, folder),
        seenFrom: options.seenFrom ?? options.cwd,
        ...(judged !== undefined ? { judged, top: top ?? root } : {}),
      },
    );
    worst = Math.max(worst, code);
  }
  return worst;
}

/** What `check --merge` needs to tell that the shards hold every file exactly once. */
function shardOf(
  files: readonly FileChange[],
  spec: ShardSpec,
  durationsPath: string | undefined,
): { mine: Set<string>; mark: Record<string, unknown> } {
  const weights = durationsPath === undefined ? null : readDurations(durationsPath);
  if (durationsPath !== undefined && weights === null)
    say(`cpilot: no durations in ${durationsPath} yet: the files are split by name`);
  const shard = splitShard(
    files.map((f) => f.path),
    weights ?? new Map(),
    spec,
  );
  return {
    mine: new Set(shard.files),
    mark: {
      index: spec.index,
      count: spec.count,
      of: shard.of,
      split: shard.split,
      files: shard.files,
    },
  };
}

/**
 * Where cpilot cannot tell, it does not pass: a run with an error cpilot cannot place, or a
 * failure with nothing it could read, still fails; so does a run stopped at old errors
 * before it reached the changed files, unless a run again that reached them finished.
 */
function failsOnNothingNew(outcome: Outcome): boolean {
  return outcome.runs.every(
    (r) =>
      !r.blocking ||
      (r.status !== "failed" && r.status !== "timed_out") ||
      (r.status === "failed" && onlyPreexisting(r.diagnostics) && reachedChanges(r)),
  );
}

/** The run read the changed files, or a run again for them finished. */
function reachedChanges(run: Outcome["runs"][number]): boolean {
  if ((run.unreached?.length ?? 0) === 0) return true;
  const again = run.reachedAgain?.status;
  return again === "passed" || again === "failed";
}
