import { parseShard } from "../match/shard.ts";
import { dropEchoedGitDir } from "../stage/echoed-git-dir.ts";
import { say } from "../ui/style.ts";
import { CpilotError } from "../util/errors.ts";
import { parseFlags } from "./_common.ts";

const USAGE =
  "cpilot check [PATHS...] [--staged | --changed [REF] | --all] [--only NAME] [--skip NAME] [--shard I/N [--durations FILE]] [--fail-on-change] [--new-only] [--dry-run] [--json | --format text|json|sarif|github] [--config PATH] | cpilot check --restore | cpilot check --merge FILE...";

export async function checkCommand(
  args: string[],
  options: { signal: AbortSignal; cwd: string },
): Promise<number> {
  // The file listings (check-files.ts) are loaded after git's survey of a --staged check
  // has started: only --changed needs them to read its arguments.
  const changed = args.some((a) => a === "--changed" || a.startsWith("--changed="));
  const split = changed
    ? (await import("./check-files.ts")).splitChangedRef(args, options.cwd)
    : { args, ref: undefined };
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
      "new-only": { type: "boolean" },
      restore: { type: "boolean" },
      shard: { type: "string" },
      durations: { type: "string" },
      merge: { type: "boolean" },
    },
    USAGE,
    {
      format:
        "text (default), json, sarif (a SARIF 2.1.0 log) or github (workflow annotations, on with text in GitHub Actions)",
      shard:
        "check only the I-th of N parts of the files (a CI matrix), balanced by --durations; each file is in exactly one part",
      durations:
        "the --json document of an earlier check: what each file cost, to balance the shards (every shard must get the same one)",
      merge: "print the --json or SARIF outputs of every shard of one check as one document",
    },
  );
  if (values.merge) return (await import("./check-merge.ts")).mergeCommand(positionals);

  // before any git call: a linked worktree's hook gets a GIT_DIR that misleads git below its top
  dropEchoedGitDir(options.cwd);
  if (values.restore) return restoreCommand(options.cwd);
  const modes = [values.staged, values.changed, values.all, positionals.length > 0].filter(
    Boolean,
  ).length;
  if (modes > 1) {
    throw new CpilotError("Cannot combine --staged, --changed, --all and PATHS: pick one", {
      hint: `usage: ${USAGE}`,
    });
  }
  const shard = values.shard === undefined ? null : parseShard(values.shard);
  if (shard !== null && values.staged)
    throw new CpilotError("Cannot combine --shard and --staged: a commit is checked whole", {
      hint: "shard a CI check: cpilot check --all --shard I/N",
    });
  if (values.durations !== undefined && shard === null)
    throw new CpilotError(`Cannot use --durations "${values.durations}" without --shard`, {
      hint: "add --shard I/N",
    });
  // git's pass over the tree is most of a small check: it starts first, before this
  // command's own code (the engine, the reports: check-run.ts) is loaded and the config
  // is read. --staged: see check-staged.ts, loaded for --staged only (setting work aside
  // is a fair share of this command's code); --all: see check-files.ts.
  const stagedStart = values.staged
    ? (await import("./check-staged.ts")).beginStagedCheck(options.cwd, values.config, {
        dryRun: values["dry-run"] === true,
      })
    : null;
  // --all: a check whose every result was replayed may print its text again whole
  const begun =
    values.all && positionals.length === 0
      ? await (await import("./check-whole-replay.ts")).beginAllCheck(
          args,
          values,
          options.cwd,
          values.config,
        )
      : null;
  if (begun !== null && "code" in begun) return begun.code;
  const allStart = begun?.allStart ?? null;
  const { runCheck } = await import("./check-run.ts");
  return runCheck(
    {
      paths: positionals,
      all: values.all === true,
      changedRef: split.ref,
      only: values.only,
      skip: values.skip,
      dryRun: values["dry-run"] === true,
      json: values.json === true,
      format: values.format,
      config: values.config,
      failOnChange: values["fail-on-change"] === true,
      newOnly: values["new-only"] === true,
      stagedStart,
      allStart,
      shard,
      durations: values.durations,
    },
    options,
  );
}

async function restoreCommand(cwd: string): Promise<number> {
  const { pendingStage } = await import("../util/pending-stage.ts");
  const { recoverStage } = await import("../stage/recover.ts");
  const dir = pendingStage(cwd);
  const result = dir === null ? ({ status: "nothing" } as const) : await recoverStage(dir, cwd);
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
