import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadProjectConfig } from "../config/load.ts";
import type { EditBatch, FileChange } from "../engine/batch.ts";
import { createEngine } from "../engine/engine.ts";
import type { Outcome } from "../engine/outcome.ts";
import { allFiles, changedFiles, explicitFiles, gitRoot, stagedFiles } from "../match/files.ts";
import { Progress } from "../ui/progress.ts";
import { renderResyncLine, renderRunLines } from "../ui/run-line.ts";
import { colorEnabled, formatDuration, paint, say } from "../ui/style.ts";
import { CpilotError } from "../util/errors.ts";
import { assertKnownNames, parseFlags } from "./_common.ts";

const USAGE =
  "cpilot check [PATHS...] [--staged | --changed [REF] | --all] [--only NAME] [--skip NAME] [--dry-run] [--json] [--config PATH]";

/** `--changed` takes an optional REF: the next word, when git knows it as a commit. */
function splitChangedRef(args: string[], cwd: string): { args: string[]; ref: string | undefined } {
  const out: string[] = [];
  let ref: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith("--changed=")) {
      ref = arg.slice("--changed=".length);
      out.push("--changed");
      continue;
    }
    out.push(arg);
    const next = args[i + 1];
    if (arg === "--changed" && next !== undefined && !next.startsWith("-") && isCommit(next, cwd)) {
      ref = next;
      i++;
    }
  }
  return { args: out, ref };
}

function isCommit(ref: string, cwd: string): boolean {
  const r = spawnSync("git", ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], { cwd });
  return r.status === 0;
}

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
  const names = config.callbacks.map((c) => c.name);
  assertKnownNames(values.only ?? [], names, "use --only");
  assertKnownNames(values.skip ?? [], names, "use --skip");

  const root = config.root;
  const files = selectFiles(root, options.cwd, positionals, {
    staged: values.staged === true,
    all: values.all === true,
    changedRef: split.ref,
  });
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
      process.stdout.write(`${JSON.stringify({ ok: true, dryRun: true, runs })}\n`);
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
  const progress = new Progress(engine.plan(batch, planOptions).length);
  const started = Date.now();
  const outcome = await engine.run(batch, {
    ...planOptions,
    signal: options.signal,
    resyncTree: config.source.resync === "tree",
    onRunStart: (r) => progress.start(r.id, r.callback),
    onRunEnd: (r) => {
      progress.end(r.id);
      if (!values.json) for (const line of renderRunLines(r, color)) progress.log(line);
    },
  });
  progress.stop();
  if (values.json) process.stdout.write(`${JSON.stringify(toJson(outcome))}\n`);
  else printSummary(outcome, files.length, Date.now() - started, color);
  if (options.signal.aborted) return 130;
  return outcome.ok ? 0 : 1;
}

function selectFiles(
  root: string,
  cwd: string,
  paths: string[],
  mode: { staged: boolean; all: boolean; changedRef: string | undefined },
): FileChange[] {
  if (paths.length > 0) return explicitFiles(root, paths, cwd);
  // A root holding .git is its own top level: no need to ask git (a process per call).
  const git = existsSync(join(root, ".git")) ? root : gitRoot(root);
  if (mode.all) return allFiles(root);
  if (git === null) {
    throw new CpilotError(
      `Cannot find changed files in "${root}": it is not inside a git work tree`,
      {
        hint: "pass PATHS or --all",
      },
    );
  }
  const inRoot = (changes: FileChange[]): FileChange[] => rebase(changes, git, root);
  if (mode.staged) return inRoot(stagedFiles(git));
  return inRoot(changedFiles(git, mode.changedRef ?? "HEAD"));
}

/** git reports paths from its top level; the config may sit in a subfolder. */
function rebase(changes: FileChange[], gitTop: string, root: string): FileChange[] {
  if (gitTop === root) return changes;
  const prefix = `${root
    .slice(gitTop.length + 1)
    .split("\\")
    .join("/")}/`;
  return changes
    .filter((c) => c.path.startsWith(prefix))
    .map((c) => ({ path: c.path.slice(prefix.length), kind: c.kind }));
}

function toJson(outcome: Outcome) {
  return {
    ok: outcome.ok,
    runs: outcome.runs.map((r) => ({
      id: r.id,
      callback: r.callback,
      files: r.files,
      status: r.status,
      blocking: r.blocking,
      exitCode: r.exitCode,
      signal: r.signal,
      durationMs: r.durationMs,
      logPath: r.logPath,
      summary: r.summary,
      tail: r.tail,
    })),
    resyncs: outcome.resyncs.map((r) => ({ path: r.path, diff: r.diff })),
    notes: outcome.notes,
  };
}

function printSummary(outcome: Outcome, fileCount: number, ms: number, color: boolean): void {
  for (const resync of outcome.resyncs) say(renderResyncLine(resync, color));
  for (const note of outcome.notes) say(paint(note, "yellow", color));
  const failed = outcome.runs.filter((r) => r.status === "failed" || r.status === "timed_out");
  const files = `${fileCount} file${fileCount === 1 ? "" : "s"}`;
  if (outcome.runs.length === 0) {
    say(paint(`cpilot: no callback matches ${files}`, "gray", color));
    return;
  }
  const runs = `${outcome.runs.length} run${outcome.runs.length === 1 ? "" : "s"}`;
  const line =
    failed.length === 0
      ? paint(`cpilot: ${runs} passed on ${files} in ${formatDuration(ms)}`, "green", color)
      : paint(
          `cpilot: ${failed.length} of ${runs} failed on ${files} in ${formatDuration(ms)}`,
          "red",
          color,
        );
  say(line);
}
