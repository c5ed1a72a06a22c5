import { readFileSync } from "node:fs";
import { evaluateWrite } from "../gate/evaluate.ts";
import { type GateLogEntry, readGateLog } from "../gate/log.ts";
import type { GateConfig } from "../model/gate-schema.ts";
import type { AskMode, PendingWrite } from "../model/gate-types.ts";
import { writeErr, writeOut } from "../platform/stdio.ts";
import { STATE, stateRelative } from "../util/state-layout.ts";

const USAGE = `usage:
  cpilot gate log [--json] [-n N]
  cpilot gate test PATH [--content FILE] [--tool NAME] [--mode prompt|deny|allow|rules-only] [--json]

  log                the gate's recent decisions
    -n N             the last N decisions
    --json           one JSON object a line on stdout
  test PATH          what the gate would decide for a write to PATH, writing nothing
    --content FILE   the content the write would carry
    --tool NAME      the agent tool that writes (default Write)
    --mode M         how an "ask" is answered: prompt, deny, allow, rules-only
    --json           the decision as JSON on stdout`;

const out = (text: string): void => {
  writeOut(text.endsWith("\n") ? text : `${text}\n`);
};
const err = (text: string): void => {
  writeErr(text.endsWith("\n") ? text : `${text}\n`);
};

function parse(
  args: string[],
  valued: readonly string[],
  booleans: readonly string[],
): { flags: Map<string, string | true>; positionals: string[] } | string {
  const flags = new Map<string, string | true>();
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (valued.includes(arg)) {
      const value = args[++i];
      if (value === undefined) return `${arg} needs a value`;
      flags.set(arg, value);
    } else if (booleans.includes(arg)) {
      flags.set(arg, true);
    } else if (arg.startsWith("-") && arg !== "-") {
      return `unknown option ${arg}`;
    } else {
      positionals.push(arg);
    }
  }
  return { flags, positionals };
}

function formatEntry(e: GateLogEntry): string {
  const who = [e.agent, e.session].filter(Boolean).join("/");
  const head = `${e.time}  ${e.decision.toUpperCase().padEnd(5)}  ${e.tool}  ${e.path}  [${e.source}]${who ? `  ${who}` : ""}`;
  return `${head}\n    ${e.reason}${e.modified ? `\n    modified: ${e.modified.split("\n")[0]}` : ""}`;
}

function logCommand(args: string[], root: string): number {
  const parsed = parse(args, ["-n"], ["--json"]);
  if (typeof parsed === "string" || parsed.positionals.length > 0) {
    err(
      `Cannot read the gate log: ${typeof parsed === "string" ? parsed : `unexpected ${parsed.positionals[0]}`}\n${USAGE}`,
    );
    return 2;
  }
  const n = Number(parsed.flags.get("-n") ?? 20);
  if (!Number.isInteger(n) || n < 0) {
    err(`Cannot show "${parsed.flags.get("-n")}" entries: -n takes a whole number`);
    return 2;
  }
  const entries = n === 0 ? [] : readGateLog(root).slice(-n);
  if (parsed.flags.has("--json")) {
    for (const e of entries) out(JSON.stringify(e));
    return 0;
  }
  if (entries.length === 0) {
    err(`No gate decisions logged yet (${stateRelative(STATE.gateLog)})`);
    return 0;
  }
  for (const e of entries) out(formatEntry(e));
  return 0;
}

const MODES: readonly string[] = ["prompt", "deny", "allow", "rules-only"];

async function testCommand(args: string[], root: string, gate: GateConfig): Promise<number> {
  const parsed = parse(args, ["--content", "--tool", "--mode"], ["--json"]);
  if (typeof parsed === "string" || parsed.positionals.length !== 1) {
    err(
      `Cannot test a write: ${typeof parsed === "string" ? parsed : "give exactly one PATH"}\n${USAGE}`,
    );
    return 2;
  }
  const path = parsed.positionals[0] as string;
  const contentFile = parsed.flags.get("--content");
  const mode = parsed.flags.get("--mode");
  if (typeof mode === "string" && !MODES.includes(mode)) {
    err(`Cannot use --mode "${mode}": expected one of ${MODES.join(", ")}`);
    return 2;
  }
  let content = "";
  if (typeof contentFile === "string") {
    try {
      content = readFileSync(contentFile, "utf8");
    } catch (e) {
      err(`Cannot read --content "${contentFile}": ${e instanceof Error ? e.message : String(e)}`);
      return 2;
    }
  }
  const tool = parsed.flags.get("--tool");
  const write: PendingWrite = { tool: typeof tool === "string" ? tool : "Write", path, content };
  // A dry run: not logged, and nobody is prompted (ask rules follow the headless mode).
  const decision = await evaluateWrite(write, {
    root,
    config: gate,
    log: false,
    tty: false,
    ...(typeof mode === "string" ? { mode: mode as AskMode } : {}),
  });
  if (parsed.flags.has("--json")) {
    out(JSON.stringify(decision));
  } else {
    out(`${decision.decision}  [${decision.source}]`);
    out(`  ${decision.reason}`);
    if (decision.asked) out(`  asked: ${decision.asked} (dry run: nobody is prompted)`);
    if (decision.modified)
      out(`  modified: ${decision.modified.summary.replaceAll("\n", "\n    ")}`);
    if (decision.hint) err(`hint: ${decision.hint}`);
  }
  return decision.decision === "allow" ? 0 : 1;
}

/**
 * `cpilot gate log [--json] [-n N]`: show logged decisions.
 * `cpilot gate test PATH [--content FILE] [--tool NAME] [--json]`: dry-run a decision;
 * exit 0 when allowed, 1 when denied, 2 on bad usage.
 */
export async function gateCommand(
  args: string[],
  options: { root: string; gate: GateConfig },
): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "log") return logCommand(rest, options.root);
  if (sub === "test") return testCommand(rest, options.root, options.gate);
  if (sub === "help" || sub === "--help" || sub === "-h") {
    writeOut(`${USAGE}\n`);
    return 0;
  }
  if (sub === undefined) {
    err(USAGE);
    return 2;
  }
  err(`Cannot run "cpilot gate ${sub}": unknown subcommand\n${USAGE}`);
  return 2;
}
