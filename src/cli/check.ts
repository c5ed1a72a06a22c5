import { loadProjectConfig } from "../config/load.ts";
import type { EditBatch } from "../engine/batch.ts";
import { createEngine } from "../engine/engine.ts";
import { writeOut } from "../platform/stdio.ts";
import { printSummary, toJson } from "../ui/check-report.ts";
import { Progress } from "../ui/progress.ts";
import { renderRunLines } from "../ui/run-line.ts";
import { colorEnabled, say } from "../ui/style.ts";
import { CpilotError } from "../util/errors.ts";
import { mark } from "../util/trace.ts";
import { assertKnownNames, parseFlags } from "./_common.ts";
import { selectFiles, splitChangedRef } from "./check-files.ts";

const USAGE =
  "cpilot check [PATHS...] [--staged | --changed [REF] | --all] [--only NAME] [--skip NAME] [--dry-run] [--json] [--config PATH]";

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
      config: { type: "string" },
    },
    USAGE,
  );
  const modes = [values.staged, values.changed, values.all, positionals.length > 0].filter(
    Boolean,
  ).length;
  if (modes > 1) {
    throw new CpilotError("Cannot combine --staged, --changed, --all and PATHS: pick one", {
      hint: `usage: ${USAGE}`,
    });
  }
  const config = await loadProjectConfig(options.cwd, values.config);
  mark("config loaded");
  const names = config.callbacks.map((c) => c.name);
  assertKnownNames(values.only ?? [], names, "use --only");
  assertKnownNames(values.skip ?? [], names, "use --skip");

  const root = config.root;
  const files = await selectFiles(root, options.cwd, positionals, {
    staged: values.staged === true,
    all: values.all === true,
    changedRef: split.ref,
  });
  mark("files selected");
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
  const outcome = await engine.run(batch, {
    ...planOptions,
    signal: options.signal,
    resyncTree: config.source.resync === "tree",
    onPlanned: (runs) => progress.setTotal(runs.length),
    onRunStart: (r) => progress.start(r.id, r.callback),
    onRunEnd: (r) => {
      progress.end(r.id);
      if (!values.json) for (const line of renderRunLines(r, color)) progress.log(line);
    },
  });
  progress.stop();
  if (values.json) writeOut(`${JSON.stringify(toJson(outcome))}\n`);
  else printSummary(outcome, files.length, Date.now() - started, color);
  mark("check reported");
  if (options.signal.aborted) return 130;
  return outcome.ok ? 0 : 1;
}
