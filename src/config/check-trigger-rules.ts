import { checkTriggerRegex } from "./regex-safety.ts";
import type { CallbackDef } from "./types.ts";

/** Mirrors config/resolve.ts. */
const BACKGROUND_TIMEOUT_S = 600;

export const TRIGGER_KEYS = ["onOutput", "onExit", "onTimeout"] as const;

interface Problem {
  readonly path: string;
  readonly message: string;
}

type AnyRule = {
  action?: unknown;
  callback?: string;
  message?: string;
  match?: string | RegExp;
  flags?: string;
  after?: number;
};

export function rulesWithPaths(value: unknown, at: string): { rule: AnyRule; path: string }[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) {
    return value.map((rule, j) => ({ rule: (rule ?? {}) as AnyRule, path: `${at}[${j}]` }));
  }
  return [{ rule: value as AnyRule, path: at }];
}

/**
 * Cross checks a schema cannot say: regexes compile and cannot backtrack catastrophically,
 * "run" names a known callback, onTimeout fires before the kill timeout, `persist` only when
 * non-blocking. `raw` lets a single rule be reported at `onOutput.match`.
 */
export function checkTriggerRules(
  callback: CallbackDef,
  raw: unknown,
  at: string,
  names: ReadonlySet<string>,
): Problem[] {
  const problems: Problem[] = [];
  const written = (raw ?? {}) as Record<string, unknown>;
  for (const key of TRIGGER_KEYS) {
    const value = written[key] !== undefined ? written[key] : callback[key];
    for (const { rule, path } of rulesWithPaths(value, `${at}.${key}`)) {
      if (key === "onOutput" && rule.match !== undefined) {
        const checked = checkTriggerRegex(rule.match, rule.flags ?? "");
        if (checked.problem !== undefined)
          problems.push({ path: `${path}.match`, message: checked.problem });
      }
      if (rule.action === "run" && rule.callback === undefined) {
        problems.push({
          path: `${path}.callback`,
          message: 'action "run" needs the name of the callback to start',
        });
      } else if (rule.callback !== undefined && rule.action !== "run") {
        problems.push({
          path: `${path}.callback`,
          message: 'is only used with action "run"',
        });
      } else if (rule.callback !== undefined && !names.has(rule.callback)) {
        problems.push({
          path: `${path}.callback`,
          message: `got "${rule.callback}", expected the name of a callback (${[...names].join(", ")})`,
        });
      }
      if (rule.message !== undefined && rule.action !== "notify") {
        problems.push({ path: `${path}.message`, message: 'is only used with action "notify"' });
      }
      const timeout = callback.timeout ?? BACKGROUND_TIMEOUT_S;
      if (key === "onTimeout" && typeof rule.after === "number" && rule.after >= timeout) {
        problems.push({
          path: `${path}.after`,
          message: `fires after ${rule.after} s, but the run is killed at its timeout of ${timeout} s`,
        });
      }
    }
  }
  if (callback.persist === true && (callback.blocking ?? true)) {
    problems.push({
      path: `${at}.persist`,
      message: "only non-blocking callbacks keep running: set blocking: false",
    });
  }
  return problems;
}
