import { isAbsolute, join, relative, resolve } from "node:path";
import {
  type GateConfig,
  type ResolvedGateConfig,
  resolveGateConfig,
} from "../model/gate-schema.ts";
import type {
  AskMode,
  GateDecision,
  PendingWrite,
  PluginInput,
  TtyPrompt,
} from "../model/gate-types.ts";
import { writeErr } from "../platform/stdio.ts";
import { contentSummary, intendedContent } from "./_summary.ts";
import { effectiveAskMode, promptOnTty } from "./ask.ts";
import { appendGateLog, GATE_LOG, logEntry } from "./log.ts";
import { listPlugins, runPlugin } from "./plugins.ts";
import { checkPath, type PathVerdict, type RuleHit, showPath } from "./rules.ts";

export interface EvaluateOptions {
  root: string;
  /** Validated here; defaults filled in. */
  config: GateConfig;
  /** Override for `ask` rules, e.g. from `--permission-mode`; default: prompt, or headless in CI. */
  mode?: AskMode;
  /** false: there is no terminal. Default: /dev/tty. */
  tty?: TtyPrompt | false;
  /** false: do not log (dry run); a string: log to that file instead. */
  log?: boolean | string;
  /** Allowed unless `defaults.agentState` is off. */
  stateDirs?: readonly string[];
}

function pluginInput(write: PendingWrite, verdict: PathVerdict, root: string): PluginInput {
  return {
    hook: "pre_write",
    tool: write.tool,
    path: verdict.relative,
    absolute_path: verdict.absolute,
    ...(write.content === undefined ? {} : { content: write.content }),
    ...(write.oldString === undefined ? {} : { old_string: write.oldString }),
    ...(write.newString === undefined ? {} : { new_string: write.newString }),
    ...(write.replaceAll === undefined ? {} : { replace_all: write.replaceAll }),
    agent: write.agent ?? null,
    session: write.session ?? null,
    root,
  };
}

function located(verdict: PathVerdict): Pick<GateDecision, "path" | "relativePath"> {
  return verdict.relative === ""
    ? { path: verdict.absolute }
    : { path: verdict.absolute, relativePath: verdict.relative };
}

function fromHit(hit: RuleHit, path: string, verdict: PathVerdict): GateDecision {
  const decision: GateDecision = {
    decision: hit.action === "allow" ? "allow" : "deny",
    reason:
      hit.action === "allow"
        ? `Allowed: ${hit.reason}`
        : `Cannot write ${showPath(path)}: ${hit.reason}`,
    source: hit.source,
    ...located(verdict),
  };
  if (hit.hint !== undefined) decision.hint = hit.hint;
  if (hit.askPerson && decision.decision === "deny") decision.askPerson = true;
  return decision;
}

async function resolveAsk(
  hit: RuleHit,
  verdict: PathVerdict,
  path: string,
  config: ResolvedGateConfig,
  options: EvaluateOptions,
): Promise<GateDecision> {
  let mode = effectiveAskMode(options.mode, config.headless);
  if (mode === "prompt") {
    const tty = options.tty === undefined ? promptOnTty : options.tty;
    const answer =
      tty === false
        ? null
        : await tty(
            `cpilot: allow ${showPath(verdict.relative)}? ${hit.reason}.`,
            config.askTimeout * 1000,
          );
    if (answer !== null) {
      return {
        decision: answer ? "allow" : "deny",
        reason: answer
          ? `Allowed: the user approved it on the terminal (${hit.reason})`
          : `Cannot write ${showPath(path)}: ${hit.reason}, and the user declined on the terminal (or did not answer within ${config.askTimeout} s); do not retry the same write, ask the user what they want instead`,
        source: hit.source,
        asked: "tty",
        ...located(verdict),
      };
    }
    mode = config.headless;
  }
  const asked = `headless:${mode}` as const;
  if (mode === "rules-only") return { ...fromHit(verdict.withoutAsk, path, verdict), asked };
  if (mode === "allow") {
    return {
      ...fromHit({ ...hit, action: "allow" }, path, verdict),
      reason: `Allowed: ${hit.reason}; no one can be asked here and the headless mode is "allow"`,
      asked,
    };
  }
  return {
    decision: "deny",
    reason: `Cannot write ${showPath(path)}: ${hit.reason}, and no one can be asked here (no terminal, headless mode "deny"); ask the user to approve or make this change`,
    source: hit.source,
    asked,
    ...located(verdict),
  };
}

/** Rules, then plugins (each modify re-checked), then any ask. */
async function decide(
  write: PendingWrite,
  config: ResolvedGateConfig,
  options: EvaluateOptions,
): Promise<GateDecision> {
  const root = resolve(options.root);
  const first = checkPath(root, write.path, config, options.stateDirs);
  if (!first.ok) {
    return {
      decision: "deny",
      reason: first.reason,
      source: first.source,
      path: first.absolute,
      ...(first.hint === undefined ? {} : { hint: first.hint }),
    };
  }
  if (first.hit.action === "deny") return fromHit(first.hit, write.path, first);

  let current = write;
  let verdict = first;
  for (const plugin of listPlugins(root, config)) {
    const answer = await runPlugin(plugin, pluginInput(current, verdict, root), root);
    const source = `plugin:${plugin.name}`;
    if (!answer.ok) {
      return {
        decision: "deny",
        reason: `Cannot write ${showPath(current.path)}: the gate plugin "${plugin.name}" failed, so the write is denied to be safe: ${answer.reason}`,
        hint: `fix or remove the plugin "${plugin.name}"`,
        source,
        ...located(verdict),
      };
    }
    const { result } = answer;
    if (result.decision === "deny") {
      return {
        decision: "deny",
        reason: `Cannot write ${showPath(current.path)}: the gate plugin "${plugin.name}" denied it: ${result.reason ?? "no reason given"}`,
        source,
        ...located(verdict),
      };
    }
    if (result.decision !== "modify") continue;
    const next: PendingWrite = {
      ...current,
      ...(result.path === undefined ? {} : { path: result.path }),
      ...(result.content === undefined ? {} : { content: result.content }),
    };
    const checked = checkPath(root, next.path, config, options.stateDirs);
    const denial = !checked.ok
      ? { reason: checked.reason, source: checked.source, path: checked.absolute }
      : checked.hit.action === "deny"
        ? { ...fromHit(checked.hit, next.path, checked) }
        : null;
    if (denial !== null) {
      return {
        decision: "deny",
        reason: `The gate plugin "${plugin.name}" changed the write, and the changed write is denied: ${denial.reason}`,
        source: denial.source,
        path: denial.path,
      };
    }
    current = next;
    verdict = checked as PathVerdict;
  }

  const decision =
    verdict.hit.action === "ask"
      ? await resolveAsk(verdict.hit, verdict, current.path, config, options)
      : fromHit(verdict.hit, current.path, verdict);
  const changes: string[] = [];
  if (verdict.absolute !== first.absolute) {
    changes.push(
      `path changed from ${showPath(first.relative)} to ${showPath(verdict.relative || verdict.absolute)}`,
    );
  }
  if (current.content !== write.content && current.content !== undefined) {
    const before = intendedContent(write, first.absolute);
    if (before !== current.content)
      changes.push(contentSummary(before, current.content, verdict.relative));
    decision.content = current.content;
  }
  if (changes.length > 0) decision.modified = { summary: changes.join("\n") };
  return decision;
}

/**
 * Never throws: any failure denies the write (fail closed). Logs to
 * `.cpilot/gate.log.jsonl` unless `log: false`.
 *
 * @example
 * const d = await evaluateWrite({ tool: "Write", path: ".env", content: "X=1" }, { root, config: {} });
 * // d.decision === "deny", d.source === "default:secrets"
 */
export async function evaluateWrite(
  write: PendingWrite,
  options: EvaluateOptions,
): Promise<GateDecision> {
  let config: ResolvedGateConfig | undefined;
  let decision: GateDecision;
  try {
    config = resolveGateConfig(options.config);
    decision = await decide(write, config, options);
  } catch (err) {
    decision = {
      decision: "deny",
      reason: `Cannot write ${showPath(write.path)}: cpilot's gate failed (${err instanceof Error ? err.message : String(err)}), so the write is denied to be safe; tell the user`,
      source: "internal",
      path:
        write.path.includes("\0") || isAbsolute(write.path)
          ? write.path
          : join(resolve(options.root), write.path),
    };
  }
  if (options.log !== false && (config?.log ?? true)) {
    const file =
      typeof options.log === "string" ? options.log : join(resolve(options.root), GATE_LOG);
    try {
      appendGateLog(file, logEntry(write, decision));
    } catch (err) {
      writeErr(
        `cpilot: cannot append to the gate log ${relative(process.cwd(), file)}: ${err instanceof Error ? err.message : String(err)}\n`,
      );
    }
  }
  return decision;
}
