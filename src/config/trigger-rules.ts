import { CpilotError } from "../util/errors.ts";
import { checkTriggerRegex } from "./regex-safety.ts";
import type { CallbackDef, TriggerFunction, TriggerLimits } from "./types.ts";

export interface ResolvedTriggerLimits {
  readonly maxDepth: number;
  readonly maxConcurrent: number;
  readonly sessionBudget: number;
}

export const DEFAULT_TRIGGER_LIMITS: ResolvedTriggerLimits = {
  maxDepth: 3,
  maxConcurrent: 3,
  sessionBudget: 50,
};

export const DEFAULT_OUTPUT_DELAY_S = 2;

export type ResolvedAction =
  | { readonly kind: "stop" }
  | { readonly kind: "notify"; readonly message: string | undefined }
  | { readonly kind: "run"; readonly callback: string }
  | { readonly kind: "function"; readonly fn: TriggerFunction };

interface RuleBase {
  /** Where the rule is in the config, for messages: `onOutput[1]`. */
  readonly label: string;
  readonly action: ResolvedAction;
}

export interface OutputRule extends RuleBase {
  readonly regex: RegExp;
  readonly delayMs: number;
  readonly maxFires: number;
}

export interface ExitRule extends RuleBase {
  readonly when: "any" | "success" | "failure";
}

export interface TimeoutRule extends RuleBase {
  readonly afterMs: number;
}

/** `Callback` is passed in, not imported, so this file and config/resolve.ts do not import each other. */
export interface ResolvedTriggers<Callback> {
  readonly onOutput: readonly OutputRule[];
  readonly onExit: readonly ExitRule[];
  readonly onTimeout: readonly TimeoutRule[];
  readonly limits: ResolvedTriggerLimits;
  readonly lookup: (name: string) => Callback | undefined;
}

export function resolveLimits(limits: TriggerLimits | undefined): ResolvedTriggerLimits {
  return {
    maxDepth: limits?.maxDepth ?? DEFAULT_TRIGGER_LIMITS.maxDepth,
    maxConcurrent: limits?.maxConcurrent ?? DEFAULT_TRIGGER_LIMITS.maxConcurrent,
    sessionBudget: limits?.sessionBudget ?? DEFAULT_TRIGGER_LIMITS.sessionBudget,
  };
}

type RawRule = {
  action: unknown;
  callback?: string;
  message?: string;
};

function list<T>(value: T | readonly T[] | undefined): readonly T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? (value as readonly T[]) : [value as T];
}

function action(rule: RawRule, where: string, callbackName: string): ResolvedAction {
  if (typeof rule.action === "function")
    return { kind: "function", fn: rule.action as TriggerFunction };
  if (rule.action === "stop") return { kind: "stop" };
  if (rule.action === "notify") return { kind: "notify", message: rule.message };
  if (rule.action === "run" && rule.callback !== undefined)
    return { kind: "run", callback: rule.callback };
  throw new CpilotError(
    `Cannot use trigger ${where} of "${callbackName}": its action is not valid`,
    {
      hint: 'action is "stop", "notify", "run" (with callback) or a function',
    },
  );
}

/** Undefined when none, so a callback without triggers costs nothing. Regexes are checked again: a config given in code skips validation. */
export function resolveTriggers<Callback>(
  def: CallbackDef,
  limits: ResolvedTriggerLimits,
  lookup: (name: string) => Callback | undefined,
): ResolvedTriggers<Callback> | undefined {
  const output = list(def.onOutput);
  const exit = list(def.onExit);
  const timeout = list(def.onTimeout);
  if (output.length + exit.length + timeout.length === 0) return undefined;
  const label = (key: string, i: number, all: readonly unknown[]): string =>
    all.length > 1 ? `${key}[${i}]` : key;
  return {
    onOutput: output.map((rule, i) => {
      const where = label("onOutput", i, output);
      const checked = checkTriggerRegex(rule.match, rule.flags ?? "");
      if (checked.problem !== undefined) {
        throw new CpilotError(`Cannot use ${where}.match of "${def.name}": ${checked.problem}`, {
          hint: "fix the regex in the config",
        });
      }
      return {
        label: where,
        action: action(rule, where, def.name),
        regex: checked.regex,
        delayMs: Math.round((rule.delay ?? DEFAULT_OUTPUT_DELAY_S) * 1000),
        maxFires: rule.maxFires ?? 1,
      };
    }),
    onExit: exit.map((rule, i) => {
      const where = label("onExit", i, exit);
      return { label: where, action: action(rule, where, def.name), when: rule.when ?? "any" };
    }),
    onTimeout: timeout.map((rule, i) => {
      const where = label("onTimeout", i, timeout);
      return {
        label: where,
        action: action(rule, where, def.name),
        afterMs: Math.round(rule.after * 1000),
      };
    }),
    limits,
    lookup,
  };
}
