import { resolve } from "node:path";
import { compilePatterns, type PathMatcher } from "../match/pattern.ts";
import {
  type ResolvedTriggerLimits,
  type ResolvedTriggers,
  resolveLimits,
  resolveTriggers,
} from "./trigger-rules.ts";
import type { CallbackDef, CpilotConfig, Overlap, Per, RunFunction } from "./types.ts";

/** Default seconds for non-blocking callbacks: nothing runs forever by default. */
export const DEFAULT_BACKGROUND_TIMEOUT_S = 600;

export interface ResolvedCallback {
  readonly name: string;
  readonly description: string;
  readonly patterns: readonly string[];
  readonly matcher: PathMatcher;
  readonly run: string | readonly string[] | RunFunction;
  readonly blocking: boolean;
  readonly timeoutMs: number;
  readonly successMessage: string | undefined;
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly per: Per;
  readonly overlap: Overlap;
  /** The per-project toggle is applied by ./state.ts. */
  readonly enabled: boolean;
  readonly triggers?: ResolvedTriggers<ResolvedCallback>;
  readonly persist?: boolean;
  readonly fixes: boolean;
  readonly after: readonly string[];
  readonly format?: CallbackDef["format"];
  readonly report?: CallbackDef["report"];
  readonly cache?: boolean;
  readonly inputs?: { readonly patterns: readonly string[]; readonly matcher: PathMatcher };
}

export interface ResolvedConfig {
  readonly root: string;
  /** "" for a config given in code. */
  readonly path: string;
  readonly callbacks: readonly ResolvedCallback[];
  readonly concurrency: number;
  readonly keepLogs: number;
  readonly triggerLimits?: ResolvedTriggerLimits;
  /** As written, for sections other modules own (gate, context). */
  readonly source: CpilotConfig;
}

function resolveCallback(
  def: CallbackDef,
  root: string,
  limits: ResolvedTriggerLimits,
  lookup: (name: string) => ResolvedCallback | undefined,
): ResolvedCallback {
  const patterns = typeof def.pattern === "string" ? [def.pattern] : [...def.pattern];
  const blocking = def.blocking ?? true;
  const timeoutS = def.timeout ?? DEFAULT_BACKGROUND_TIMEOUT_S;
  return {
    name: def.name,
    description: def.description ?? "",
    patterns,
    matcher: compilePatterns(patterns),
    run: def.run,
    blocking,
    timeoutMs: Math.round(timeoutS * 1000),
    successMessage: def.successMessage,
    cwd: resolve(root, def.cwd ?? "."),
    env: def.env ?? {},
    per: def.per ?? "batch",
    overlap: def.overlap ?? "queue",
    enabled: def.enabled ?? true,
    fixes: def.fixes ?? false,
    after: def.after ?? [],
    ...triggerFields(def, limits, lookup),
    ...(def.format ? { format: def.format } : {}),
    ...(def.report ? { report: def.report } : {}),
    ...(def.cache !== undefined ? { cache: def.cache } : {}),
    ...(def.inputs !== undefined ? { inputs: declaredInputs(def.inputs) } : {}),
  };
}

function declaredInputs(
  inputs: string | readonly string[],
): NonNullable<ResolvedCallback["inputs"]> {
  const patterns = typeof inputs === "string" ? [inputs] : [...inputs];
  return { patterns, matcher: compilePatterns(patterns) };
}

function triggerFields(
  def: CallbackDef,
  limits: ResolvedTriggerLimits,
  lookup: (name: string) => ResolvedCallback | undefined,
): { triggers?: ResolvedTriggers<ResolvedCallback>; persist?: boolean } {
  const triggers = resolveTriggers(def, limits, lookup);
  return {
    ...(triggers ? { triggers } : {}),
    ...(def.persist ? { persist: true } : {}),
  };
}

export function resolveConfig(config: CpilotConfig, root: string, path = ""): ResolvedConfig {
  const triggerLimits = resolveLimits(config.triggerLimits ?? config.hookLimits);
  const byName = new Map<string, ResolvedCallback>();
  const lookup = (name: string): ResolvedCallback | undefined => byName.get(name);
  const callbacks = config.callbacks.map((cb) =>
    resolveCallback(cb, resolve(root), triggerLimits, lookup),
  );
  for (const cb of callbacks) if (!byName.has(cb.name)) byName.set(cb.name, cb);
  return {
    root: resolve(root),
    path,
    callbacks,
    concurrency: config.concurrency ?? cores(),
    keepLogs: config.keepLogs ?? 200,
    triggerLimits,
    source: config,
  };
}

/** From the Web API: loading node:os would cost every hook call. */
function cores(): number {
  const n = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator
    ?.hardwareConcurrency;
  return typeof n === "number" && n > 0 ? n : 2;
}
