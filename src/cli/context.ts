/** `cpilot context apply`: apply `<context-update>` blocks from a file, stdin or a followed log. */
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type * as NodeUtil from "node:util";
import {
  type ApplyReport,
  createContextSession,
  type FollowEnd,
  type FollowOptions,
  followUpdates,
  projectContext,
  renderReport,
  summarize,
} from "../context/index.ts";
import { gitRoot } from "../match/git-root.ts";
import { nodeBuiltin } from "../platform/builtin.ts";
import { writeErr, writeOut } from "../platform/stdio.ts";
import { CpilotError } from "../util/errors.ts";

const USAGE = `usage: cpilot context apply [FILE|-] [--dry-run] [--backup] [--follow] [--json] [--dir DIR]

Apply the <context-update> blocks in FILE (or stdin) to the markdown files in the context
directory (default: .context/ at the project root).

  --dry-run               print the unified diff, write nothing
  --backup                keep FILE.md.bak before the first write
  --follow                tail FILE as it grows; apply each block when it closes (stop: Ctrl-C)
  --follow-idle-exit SEC  with --follow: stop after SEC seconds without growth
  --move-completed        complete also moves the task to a "Completed" section, dated
  --json                  print one JSON document on stdout
  --dir DIR               the context directory

exit 0 all applied, 1 some block failed, 2 usage error`;

const HELP_HINT = 'run "cpilot context apply --help"';

function usage(message: string, hint = HELP_HINT): CpilotError {
  return new CpilotError(message, { hint, exitCode: 2 });
}

function printError(err: CpilotError): number {
  writeErr(`error: ${err.message}\n${err.hint === undefined ? "" : `hint: ${err.hint}\n`}`);
  return err.exitCode;
}

/** Else `cwd`. */
function projectRoot(cwd: string): string {
  return gitRoot(cwd) ?? cwd;
}

function parse(args: string[]) {
  let parsed: ReturnType<
    typeof NodeUtil.parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>
  >;
  try {
    const { parseArgs } = nodeBuiltin<typeof NodeUtil>("node:util");
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw usage((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true as const };
  const [sub, input, ...extra] = positionals;
  if (sub !== "apply")
    throw usage(sub === undefined ? "missing subcommand" : `unknown subcommand "${sub}"`);
  if (extra.length > 0) throw usage(`expected one input, got ${positionals.length - 1}`);
  if (values.follow && (input === undefined || input === "-")) throw usage("--follow needs a FILE");
  let idleExitMs: number | undefined;
  if (values["follow-idle-exit"] !== undefined) {
    const seconds = Number(values["follow-idle-exit"]);
    if (!values.follow) throw usage("--follow-idle-exit needs --follow");
    if (!Number.isFinite(seconds) || seconds <= 0) {
      throw usage(
        `--follow-idle-exit "${values["follow-idle-exit"]}" is not a positive number of seconds`,
      );
    }
    idleExitMs = seconds * 1000;
  }
  if (input === undefined && process.stdin.isTTY) {
    throw usage("no input: give a FILE, or pipe the text in");
  }
  return { help: false as const, values, input: input ?? "-", idleExitMs };
}

const OPTIONS = {
  "dry-run": { type: "boolean" },
  backup: { type: "boolean" },
  follow: { type: "boolean" },
  "follow-idle-exit": { type: "string" },
  "move-completed": { type: "boolean" },
  json: { type: "boolean" },
  dir: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

async function readInput(input: string, cwd: string): Promise<string> {
  if (input !== "-") {
    try {
      return readFileSync(resolve(cwd, input), "utf8");
    } catch (err) {
      throw usage(`Cannot read "${input}": ${(err as Error).message}`, "check the path");
    }
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

const WHY: Record<FollowEnd, string> = {
  aborted: "interrupted",
  removed: "the file was removed",
  idle: "no growth",
};

async function follow(
  path: string,
  idleExitMs: number | undefined,
  signal: AbortSignal | undefined,
  onBlocks: FollowOptions["onBlocks"],
): Promise<FollowEnd> {
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.on("SIGINT", onSigint);
  try {
    const stop = signal === undefined ? abort.signal : AbortSignal.any([abort.signal, signal]);
    const options: FollowOptions = { onBlocks, signal: stop };
    if (idleExitMs !== undefined) options.idleExitMs = idleExitMs;
    return await followUpdates(path, options);
  } finally {
    process.off("SIGINT", onSigint);
  }
}

/** Text for people on stderr, JSON (with --json) on stdout. Returns the exit code; never exits the process. */
export async function contextCommand(
  args: string[],
  options: { signal?: AbortSignal } = {},
): Promise<number> {
  const cwd = process.cwd();
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (err) {
    if (!(err instanceof CpilotError)) throw err;
    return printError(err);
  }
  if (parsed.help) {
    writeOut(`${USAGE}\n`);
    return 0;
  }
  const { values, input, idleExitMs } = parsed;
  // The default folder must really be inside the project (the rule of the Stop hook and the
  // MCP tool); a folder named with --dir is the person's own choice.
  const where =
    values.dir === undefined
      ? projectContext(projectRoot(cwd), undefined)
      : { contextDir: resolve(cwd, values.dir) };
  const { contextDir } = where;
  const dryRun = values["dry-run"] ?? false;
  const session = createContextSession({
    ...where,
    dryRun,
    backup: values.backup ?? false,
    moveCompleted: values["move-completed"] ?? false,
  });
  const total: ApplyReport = { results: [], parseErrors: [] };
  const show = (report: ApplyReport) => {
    total.results.push(...report.results);
    total.parseErrors.push(...report.parseErrors);
    writeErr(`${renderReport(report, { dryRun, diffs: dryRun })}\n`);
  };
  try {
    if (values.follow) {
      const path = resolve(cwd, input);
      if (!existsSync(path)) {
        throw usage(`Cannot follow "${input}": no such file`, "create it first, or check the path");
      }
      const end = await follow(path, idleExitMs, options.signal, (updates, errors) => {
        show({ results: session.apply(updates).results, parseErrors: errors });
      });
      const { applied, failed, unreadable } = summarize(total);
      writeErr(
        `context updates: stopped following (${WHY[end]}): ${applied} applied, ${failed + unreadable} failed\n`,
      );
    } else {
      show(session.apply(await readInput(input, cwd)));
    }
  } catch (err) {
    if (!(err instanceof CpilotError)) throw err;
    return printError(err);
  }
  const summary = summarize(total);
  if (values.json) {
    writeOut(`${JSON.stringify({ ok: summary.ok, dryRun, contextDir, ...total }, null, 2)}\n`);
  }
  return summary.ok ? 0 : 1;
}
