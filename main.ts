#!/usr/bin/env bun
import { AGENT_HOOK_FILES, AGENT_LOADERS, AGENT_NAMES } from "./src/agents/registry.ts";
import { protectHookFiles } from "./src/config/hook-files.ts";
import { dieWithParent } from "./src/platform/parent-death.ts";
import { processStop, stopProcessRuns } from "./src/platform/process-stop.ts";
import { rawArgv } from "./src/platform/raw-argv.ts";
import { writeErr, writeOut } from "./src/platform/stdio.ts";
// argv → command. The only place that exits the process.
import { CpilotError, HelpRequest } from "./src/util/errors.ts";
import { decodeBytes } from "./src/util/path-bytes.ts";
import { pendingStage } from "./src/util/pending-stage.ts";
import { mark } from "./src/util/trace.ts";
import { VERSION, VERSION_LINE } from "./src/version.ts";

const HELP = `cpilot ${VERSION}: run your project's checks when an AI agent edits files

usage: cpilot <command> [options]        (cpilot <command> --help for its options)

  check [PATHS...]     run callbacks on files (--staged, --changed [REF], --all, --only, --skip, --dry-run, --json, --restore)
  list                 the callbacks table
  enable | disable     resume or pause callbacks here (NAME... or --all)
  logs [RUN_ID]        recent runs, or one run's full output
  cache [clear]        what the result cache holds (checks not run again on the same content), or empty it
  ps                   what runs now (run id, callback, pid, started, session, command)
  stop RUN_ID          stop a running run and everything it started (--session ID, --all)
  init                 propose callbacks for what the project already runs, then write the config
  add "<words>"        build a callback from plain words (a small model, or phrase rules)
  approve [NAME...]    show what an agent proposed (MCP callback_upsert); yes on the terminal makes it run
  context apply        apply <context-update> blocks to .context/ markdown
  gate test | log      dry-run the write gate, or show its decisions

  install AGENT        wire cpilot into an agent: ${AGENT_NAMES.join(", ")} (--mcp: as an MCP server);
                       install git: a pre-commit hook running check --staged (an existing hook runs first)
  uninstall AGENT      remove exactly what install added
  run -- AGENT ARGS    start an agent with cpilot wired in for this session only
  hook AGENT           answer an agent's hook call (reads its JSON on stdin; agents call this)
  mcp                  serve cpilot's edit, callback and context tools over MCP (stdio)
  doctor               is cpilot wired into each agent here, does the config load, do the commands exist

Exit codes: 0 ok, 1 a blocking callback failed, 2 usage or config error, 130 interrupted.
Docs: README.md`;

type Command = (args: string[], ctx: { cwd: string; signal: AbortSignal }) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  check: async () => (await import("./src/cli/check.ts")).checkCommand,
  list: async () => (await import("./src/cli/list.ts")).listCommand,
  enable: async () => {
    const { toggleCommand } = await import("./src/cli/toggle.ts");
    return (args, ctx) => toggleCommand(true, args, ctx);
  },
  disable: async () => {
    const { toggleCommand } = await import("./src/cli/toggle.ts");
    return (args, ctx) => toggleCommand(false, args, ctx);
  },
  logs: async () => (await import("./src/cli/logs.ts")).logsCommand,
  cache: async () => (await import("./src/cli/cache.ts")).cacheCommand,
  ps: async () => (await import("./src/cli/ps.ts")).psCommand,
  stop: async () => (await import("./src/cli/stop.ts")).stopCommand,
  init: async () => (await import("./src/cli/init.ts")).initCommand,
  add: async () => (await import("./src/cli/add.ts")).addCommand,
  approve: async () => (await import("./src/cli/approve.ts")).approveCommand,
  gate: async () => {
    const { gateCommand } = await import("./src/cli/gate.ts");
    const { loadProjectConfigSupervised } = await import("./src/config/supervised-load.ts");
    return async (args, ctx) => {
      const { rest, config: explicit } = takeConfigFlag(args);
      // Help needs no project.
      if (rest[0] === "--help" || rest[0] === "-h" || rest[0] === "help") {
        return gateCommand(rest, { root: ctx.cwd, gate: {} });
      }
      const config = await loadProjectConfigSupervised(ctx.cwd, explicit, ctx.signal);
      return gateCommand(rest, { root: config.root, gate: config.source.gate ?? {} });
    };
  },
  // The hook pipeline owns the command; it looks the agent up in the registry's table.
  hook: async () => {
    const { hookCommand } = await import("./src/hook/call.ts");
    return (args, ctx) => hookCommand(args, ctx, AGENT_LOADERS);
  },
  install: async () => {
    const { installCommand } = await import("./src/cli/install.ts");
    return (args, ctx) => installCommand("install", args, ctx);
  },
  uninstall: async () => {
    const { installCommand } = await import("./src/cli/install.ts");
    return (args, ctx) => installCommand("uninstall", args, ctx);
  },
  run: async () => (await import("./src/cli/run.ts")).runCommand,
  mcp: async () => (await import("./src/cli/mcp.ts")).mcpCommand,
  doctor: async () => (await import("./src/cli/doctor.ts")).doctorCommand,
  context: async () => {
    const { contextCommand } = await import("./src/cli/context.ts");
    return (args) => contextCommand(args);
  },
};

/**
 * cpilot's own children, started by cpilot and never typed by a person: not in the help, not
 * offered as "did you mean". Each ends with the process that started it.
 */
const CHILDREN: Record<string, () => Promise<Command>> = {
  // A config's trial load for `cpilot mcp` and `cpilot check` (PROBE_COMMAND in src/config/load-probe.ts).
  "_load-config": async () => {
    const { answerProbe } = await import("./src/config/load-probe.ts");
    return async (args) => {
      await dieWithParent();
      return answerProbe(args[0]);
    };
  },
  // The Claude Code mod's call before a Write or Edit is recorded (src/agents/claude/mod/).
  "_format-call": async () => {
    const { formatCallCommand } = await import("./src/cli/format-call.ts");
    return (args) => formatCallCommand(args[0] ?? "");
  },
  // Non-blocking callbacks a hook call handed over (BACKGROUND_COMMAND in src/hook/background.ts).
  _background: async () => {
    const { runBackground } = await import("./src/hook/background-run.ts");
    return async (args) => {
      await runBackground(args[0] ?? "");
      return 0;
    };
  },
};

/** Pull a global `--config PATH` out of a subcommand's arguments. */
function takeConfigFlag(args: string[]): { rest: string[]; config: string | undefined } {
  const rest: string[] = [];
  let config: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--config") config = args[++i];
    else if (arg.startsWith("--config=")) config = arg.slice("--config=".length);
    else rest.push(arg);
  }
  return { rest, config };
}

async function main(argv: string[]): Promise<number> {
  mark("cpilot started");
  // The gate, wherever this process meets it, protects the files that wire in each agent.
  protectHookFiles(AGENT_HOOK_FILES);
  const [name, ...args] = argv;
  if (name === undefined) {
    writeErr(`${HELP}\n`);
    return 2;
  }
  if (name === "help" || name === "--help" || name === "-h") {
    writeOut(`${HELP}\n`);
    return 0;
  }
  if (name === "--version" || name === "-v" || name === "version") {
    writeOut(`${VERSION_LINE}\n`);
    return 0;
  }
  const load = Object.hasOwn(CHILDREN, name) ? CHILDREN[name] : COMMANDS[name];
  if (load === undefined) {
    const { closestNames } = await import("./src/util/edit-distance.ts");
    const near = closestNames(name, [...Object.keys(COMMANDS), "help", "version"]);
    throw new CpilotError(`Cannot run "cpilot ${name}": no such command`, {
      hint:
        near.length > 0
          ? `did you mean ${near.map((n) => `\`cpilot ${n}\``).join(" or ")}? (\`cpilot help\` lists the commands)`
          : "`cpilot help` lists the commands",
    });
  }
  if ((args[0] === "--help" || args[0] === "-h") && (name === "run" || name === "hook")) {
    writeOut(`${commandHelp(name)}\n`);
    return 0;
  }
  const interrupt = (): void => {
    if (processStop.aborted) process.exit(130);
    writeErr("\ncpilot: stopping every run (Ctrl-C again to quit now)\n");
    stopProcessRuns(new Error("interrupted"));
  };
  process.on("SIGINT", interrupt);
  process.on("SIGTERM", interrupt);
  process.on("SIGHUP", interrupt); // the terminal closed: stop and clean up as for SIGTERM
  await recoverSetAsideWork(name, args);
  const command = await load();
  mark("command loaded");
  return command(args, { cwd: process.cwd(), signal: processStop });
}

/**
 * A `check --staged` that was killed left the user's unstaged and untracked work set aside
 * in the git folder: the next cpilot call, whatever it is, puts it back and says so (on
 * stderr: hook and MCP stdout carry only protocol). `check --restore` does it itself.
 */
async function recoverSetAsideWork(name: string, args: string[]): Promise<void> {
  if (name === "check" && args.includes("--restore")) return;
  const dir = pendingStage(process.cwd());
  if (dir === null) return;
  try {
    const { recoverStage } = await import("./src/stage/recover.ts");
    const result = await recoverStage(dir);
    if (result.status === "restored" || result.status === "foreign") {
      for (const line of result.lines) writeErr(`${line}\n`);
    }
  } catch (err) {
    writeErr(
      `cpilot: Cannot put back the work an interrupted \`cpilot check --staged\` set aside in ${dir}: ${(err as Error).message}\nhint: it is all still there; run \`cpilot check --restore\` to try again\n`,
    );
  }
}

/** The lines of HELP about one command, for `cpilot <command> --help` where it has no usage of its own. */
function commandHelp(name: string): string {
  const lines = HELP.split("\n").filter((l) => new RegExp(`^  (\\S+ \\| )?${name}\\b`).test(l));
  return `${lines.join("\n") || `  ${name}`}\n\nDocs: README.md`;
}

function report(err: unknown): number {
  if (err instanceof HelpRequest) {
    writeOut(`${err.usage}\n`);
    return 0;
  }
  if (err instanceof CpilotError) {
    writeErr(`cpilot: ${err.message}\n`);
    if (err.hint) writeErr(`hint: ${err.hint}\n`);
    return err.exitCode;
  }
  const text = err instanceof Error ? (err.stack ?? err.message) : String(err);
  writeErr(`cpilot: internal error (please report it): ${text}\n`);
  return 70;
}

/** The arguments as given: a file name that is not UTF-8 keeps its bytes (see path-bytes.ts). */
function commandArgs(decoded: string[]): string[] {
  if (decoded.every((arg) => !arg.includes("\ufffd"))) return decoded;
  return rawArgv(decoded)?.map(decodeBytes) ?? decoded;
}

/**
 * Commands whose last output may still sit in a stream (the MCP transport; `logs` piping a
 * file to stdout) end when the runtime has written it. The others write synchronously and
 * exit at once: letting the runtime wind down by itself cost ~1.5 ms of every check.
 */
const ENDS_WITH_STREAMS = new Set(["mcp", "logs"]);

const argv = commandArgs(process.argv.slice(2));
const finish = (code: number): void => {
  if (ENDS_WITH_STREAMS.has(argv[0] ?? "")) process.exitCode = code;
  else process.exit(code);
};
main(argv).then(finish, (err) => finish(report(err)));
