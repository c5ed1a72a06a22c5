import { agentSettings } from "../config/agent-settings.ts";
import { loadProjectConfigSupervised } from "../config/supervised-load.ts";
import { createEngine } from "../engine/engine.ts";
import type { EditBatch } from "../model/batch.ts";
import type { Outcome } from "../model/outcome.ts";
import { keepStdoutForProtocol, writeOut } from "../platform/stdio.ts";
import { checkFormat, writeCheckExport } from "../ui/check-export.ts";
import { printSummary, toJson } from "../ui/check-report.ts";
import { Progress } from "../ui/progress.ts";
import { renderRunLines } from "../ui/run-line.ts";
import { colorEnabled, say } from "../ui/style.ts";
import { CpilotError } from "../util/errors.ts";
import { takeStateTrouble } from "../util/state-trouble.ts";
import { mark } from "../util/trace.ts";
import { assertKnownNames, parseFlags } from "./_common.ts";
import { beginAllFiles, selectFiles, splitChangedRef } from "./check-files.ts";
import { failOnChangeActive, failOnChanges } from "./fail-on-change.ts";

/**
 * Up to this many files, a check in the terminal still reads them before the runs, so a
 * rewrite shows its line counts; past it, the rewritten files are named (a 1,000-file check
 * spent ~10 ms of CPU reading them first, and as much again comparing).
 */
const TERMINAL_SNAPSHOT_LIMIT = 100;

const USAGE =
  "cpilot check [PATHS...] [--staged | --changed [REF] | --all] [--only NAME] [--skip NAME] [--fail-on-change] [--dry-run] [--json | --format text|json|sarif|github] [--config PATH] | cpilot check --restore";

/** Run the project's callbacks on a set of files, as a pre-commit hook or in CI. */
export async function checkCommand(
  args: string[],
  options: { signal: AbortSignal; cwd: string },
): Promise<number> {
  const split = splitChangedRef(args, options.cwd);
  const { values, positionals } = parseFlags(
    split.args,
    {
      staged: { type: "boolean" },
      changed: { type: "boolean" },
      all: { type: "boolean" },
      only: { type: "string", multiple: true },
      skip: { type: "string", multiple: true },
      "dry-run": { type: "boolean" },
      json: { type: "boolean" },
      format: { type: "string" },
      config: { type: "string" },
      "fail-on-change": { type: "boolean" },
      restore: { type: "boolean" },
    },
    USAGE,
    {
      format:
        "text (default), json, sarif (a SARIF 2.1.0 log) or github (workflow annotations, on with text in GitHub Actions)",
    },
  );
  if (values.restore) return restoreCommand(options.cwd);
  const format = checkFormat(values.format, values.json === true);
  if (format === "json") values.json = true;
  const modes = [values.staged, values.changed, values.all, positionals.length > 0].filter(
    Boolean,
  ).length;
  if (modes > 1) {
    throw new CpilotError("Cannot combine --staged, --changed, --all and PATHS: pick one", {
      hint: `usage: ${USAGE}`,
    });
  }
  // JSON and SARIF are for programs: the config's own prints (at load, in its hooks) go to stderr.
  if (values.json || format === "sarif") keepStdoutForProtocol();
  // --staged: git's pass over the tree starts before the config loads (see check-staged.ts);
  // loaded for --staged only: setting work aside is a fair share of this command's code
  const stagedStart = values.staged
    ? (await import("./check-staged.ts")).beginStagedCheck(options.cwd, values.config, {
        dryRun: values["dry-run"] === true,
      })
    : null;
  // --all: git's listings start before the config loads, too (see check-files.ts)
  const allStart =
    values.all && positionals.length === 0 ? beginAllFiles(options.cwd, values.config) : null;
  const config = await loadProjectConfigSupervised(options.cwd, values.config, options.signal);
  mark("config loaded");
  const names = config.callbacks.map((c) => c.name);
  assertKnownNames(values.only ?? [], names, "use --only");
  assertKnownNames(values.skip ?? [], names, "use --skip");

  const root = config.root;
  const staged = stagedStart ? await stagedStart.open(config) : null;
  const files =
    staged?.files ??
    (allStart !== null && allStart.root === root ? await allStart.files : null) ??
    (await selectFiles(root, options.cwd, positionals, {
      staged: false,
      all: values.all === true,
      changedRef: split.ref,
    }));
  mark("files selected");
  if (staged && files.length === 0) {
    if (values.json)
      writeOut(
        `${JSON.stringify({ ok: true, runs: [], resyncs: [], notes: ["nothing staged"] })}\n`,
      );
    else say("cpilot: nothing staged, nothing to check");
    return 0;
  }
  const failOnChange = failOnChangeActive(
    config.source.failOnChange,
    values["fail-on-change"] === true,
  );
  const batch: EditBatch = { root, files, origin: { surface: "check" } };
  const engine = createEngine({ root, config });
  const planOptions = {
    ...(values.only ? { only: values.only } : {}),
    ...(values.skip ? { skip: values.skip } : {}),
  };

  if (values["dry-run"]) {
    const planned = engine.plan(batch, planOptions);
    if (values.json) {
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
          `  ${p.callback.name}: ${p.files.map((f) => JSON.stringify(f).slice(1, -1)).join(" ")}`,
        );
    }
    return 0;
  }

  const color = colorEnabled();
  const progress = new Progress();
  const started = Date.now();
  let ran: Outcome | null = null;
  let combined = true;
  const shown = new Set<string>(); // diagnostics printed under an earlier run: not again
  const { tailLines } = agentSettings(config.source.agent); // the raw tail: as agents see it
  try {
    ran = await engine.run(batch, {
      ...planOptions,
      signal: options.signal,
      resyncTree: config.source.resync === "tree" || failOnChange,
      // a terminal shows a rewrite as a name and line counts: not worth reading every file
      // of a large check first (CI and --json show the diffs: those keep the full snapshot)
      ...(failOnChange || values.json ? {} : { contentSnapshotLimit: TERMINAL_SNAPSHOT_LIMIT }),
      onPlanned: (runs) => progress.setTotal(runs.length),
      onRunStart: (r) => progress.start(r.id, r.callback),
      onRunEnd: (r) => {
        progress.end(r.id);
        if (!values.json)
          for (const line of renderRunLines(r, color, { tailLines, seen: shown }))
            progress.log(line);
      },
    });
  } finally {
    progress.stop();
    // set-aside work goes back whatever happened; fixes are staged unless interrupted
    if (staged) {
      combined = staged.finish({
        aborted: ran === null || options.signal.aborted,
        rewritten: ran?.resyncs.map((r) => r.path) ?? [],
      });
    }
  }
  let outcome: Outcome = failOnChange ? failOnChanges(ran) : ran;
  if (!combined) outcome = { ...outcome, ok: false };
  if (values.json) writeOut(`${JSON.stringify(toJson(outcome))}\n`);
  else if (failOnChange && outcome.resyncs.length > 0) {
    for (const r of outcome.resyncs) say(r.diff);
  }
  if (!values.json) printSummary(outcome, files.length, Date.now() - started, color);
  writeCheckExport(outcome, format);
  const trouble = takeStateTrouble(config.root);
  if (trouble !== null) process.stderr.write(`${trouble}\n`);
  mark("check reported");
  if (options.signal.aborted) return 130;
  return outcome.ok ? 0 : 1;
}

/** `cpilot check --restore`: put back what an interrupted `check --staged` set aside. */
async function restoreCommand(cwd: string): Promise<number> {
  const { pendingStage } = await import("../stage/pending.ts");
  const { recoverStage } = await import("../stage/recover.ts");
  const dir = pendingStage(cwd);
  const result = dir === null ? ({ status: "nothing" } as const) : await recoverStage(dir);
  if (result.status === "busy") {
    throw new CpilotError(
      `Cannot restore set-aside work: cpilot check --staged (pid ${result.pid}) is still running and will put it back itself`,
      { hint: `wait for it, or stop it (kill ${result.pid}) and run cpilot check --restore again` },
    );
  }
  if (result.status === "nothing") say("cpilot: nothing set aside: nothing to restore");
  else for (const line of result.lines) say(line);
  return 0;
}
