/** `cpilot context apply`: apply `<context-update>` blocks from a file, stdin or a followed log. */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  type ApplyReport,
  createContextSession,
  followUpdates,
  renderReport,
  summarize,
} from "../context/index.ts";

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

class UsageError extends Error {}

/** The git top-level of `cwd`, else `cwd`. */
function projectRoot(cwd: string): string {
  const git = spawnSync("git", ["rev-parse", "--show-toplevel"], { cwd, encoding: "utf8" });
  const top = git.status === 0 ? git.stdout.trim() : "";
  return top === "" ? cwd : top;
}

function parse(args: string[]) {
  let parsed: ReturnType<
    typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>
  >;
  try {
    parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return { help: true as const };
  const [sub, input, ...extra] = positionals;
  if (sub !== "apply")
    throw new UsageError(sub === undefined ? "missing subcommand" : `unknown subcommand "${sub}"`);
  if (extra.length > 0) throw new UsageError(`expected one input, got ${positionals.length - 1}`);
  if (values.follow && (input === undefined || input === "-"))
    throw new UsageError("--follow needs a FILE");
  let idleExitMs: number | undefined;
  if (values["follow-idle-exit"] !== undefined) {
    const seconds = Number(values["follow-idle-exit"]);
    if (!values.follow) throw new UsageError("--follow-idle-exit needs --follow");
    if (!Number.isFinite(seconds) || seconds <= 0) {
      throw new UsageError(
        `--follow-idle-exit "${values["follow-idle-exit"]}" is not a positive number of seconds`,
      );
    }
    idleExitMs = seconds * 1000;
  }
  if (input === undefined && process.stdin.isTTY) {
    throw new UsageError("no input: give a FILE, or pipe the text in");
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
      throw new UsageError(`Cannot read "${input}": ${(err as Error).message}`);
    }
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Run `cpilot context <args>` (args after "context"). Human text goes to stderr, the JSON
 * document (with --json) to stdout. Returns the exit code; never exits the process.
 */
export async function contextCommand(args: string[]): Promise<number> {
  const cwd = process.cwd();
  let options: ReturnType<typeof parse>;
  try {
    options = parse(args);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`error: ${err.message}\nhint: run "cpilot context apply --help"\n`);
    return 2;
  }
  if (options.help) {
    process.stderr.write(`${USAGE}\n`);
    return 0;
  }
  const { values, input, idleExitMs } = options;
  const contextDir =
    values.dir === undefined ? join(projectRoot(cwd), ".context") : resolve(cwd, values.dir);
  const dryRun = values["dry-run"] ?? false;
  const session = createContextSession({
    contextDir,
    dryRun,
    backup: values.backup ?? false,
    moveCompleted: values["move-completed"] ?? false,
  });
  const total: ApplyReport = { results: [], parseErrors: [] };
  const show = (report: ApplyReport) => {
    total.results.push(...report.results);
    total.parseErrors.push(...report.parseErrors);
    process.stderr.write(`${renderReport(report, { dryRun, diffs: dryRun })}\n`);
  };
  try {
    if (values.follow) {
      const abort = new AbortController();
      const onSigint = () => abort.abort();
      process.on("SIGINT", onSigint);
      try {
        const followOptions = {
          signal: abort.signal,
          onBlocks: (
            updates: Parameters<typeof session.apply>[0],
            errors: ApplyReport["parseErrors"],
          ) => {
            const report = session.apply(updates);
            show({ results: report.results, parseErrors: errors });
          },
          ...(idleExitMs === undefined ? {} : { idleExitMs }),
        };
        const path = resolve(cwd, input);
        if (!existsSync(path)) throw new UsageError(`Cannot follow "${input}": no such file`);
        const end = await followUpdates(path, followOptions);
        const { applied, failed, unreadable } = summarize(total);
        const why = { aborted: "interrupted", removed: "the file was removed", idle: "no growth" }[
          end
        ];
        process.stderr.write(
          `context updates: stopped following (${why}): ${applied} applied, ${failed + unreadable} failed\n`,
        );
      } finally {
        process.off("SIGINT", onSigint);
      }
    } else {
      show(session.apply(await readInput(input, cwd)));
    }
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`error: ${err.message}\n`);
    return 2;
  }
  const summary = summarize(total);
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ ok: summary.ok, dryRun, contextDir, ...total }, null, 2)}\n`,
    );
  }
  return summary.ok ? 0 : 1;
}
