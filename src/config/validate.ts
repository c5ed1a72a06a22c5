import type { z } from "zod";
import { validatePatterns } from "../match/pattern.ts";
import { didYouMean } from "../util/edit-distance.ts";
import { checkAfter } from "./check-after.ts";
import { checkTriggerRules, TRIGGER_KEYS } from "./check-trigger-rules.ts";
import { configSchema } from "./schema.ts";
import { keysAt } from "./schema-keys.ts";
import type { CpilotConfig } from "./types.ts";

export interface ConfigProblem {
  /** Like `callbacks[2].timeout`; empty for the whole file. */
  readonly path: string;
  readonly message: string;
}

export function formatKeyPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

export function describeValue(value: unknown): string {
  if (typeof value === "function") return "a function";
  if (value === undefined) return "nothing";
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") {
    const known = keysAt(issue.path);
    const hints = issue.keys.map((k) => didYouMean(k, known)).filter((h) => h !== "");
    return `unknown key${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")}${hints.length > 0 ? ` (${hints.join("; ")})` : ""}`;
  }
  const got = "input" in issue ? `got ${describeValue(issue.input)}, ` : "";
  if (issue.code === "invalid_union") {
    const key = issue.path[issue.path.length - 1];
    if (key === "action") return `${got}expected "stop", "notify", "run" or a function`;
    if (key === "match") return `${got}expected a regex (a string, or a RegExp)`;
    if (key === "inputs") return `${got}expected a glob or a list of globs, such as ["rules.txt"]`;
    return `${got}expected a string, a list of strings, or a function`;
  }
  const message = issue.message
    .replace(/^Invalid (input|option): /, "")
    .replace(/, received \w+$/, "");
  return `${got}${message}`;
}

/** A single rule is checked as a list of one: report it as written, not at `onOutput[0]`. */
function asWritten(path: readonly PropertyKey[], value: unknown): readonly PropertyKey[] {
  const at = path.findIndex((k) => (TRIGGER_KEYS as readonly PropertyKey[]).includes(k));
  if (at < 2 || path[0] !== "callbacks" || typeof path[at + 1] !== "number") return path;
  const callbacks = (value as { callbacks?: unknown[] } | null)?.callbacks;
  const written = (callbacks?.[path[1] as number] as Record<string, unknown> | undefined)?.[
    path[at] as string
  ];
  return Array.isArray(written) ? path : [...path.slice(0, at + 1), ...path.slice(at + 2)];
}

export interface ValidateOptions {
  /** Callback names `run` actions may name from elsewhere: the hand-written config's, when the managed file is checked alone. */
  readonly knownNames?: readonly string[];
}

function crossChecks(
  config: CpilotConfig,
  raw: unknown = config,
  knownNames: readonly string[] = [],
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const seen = new Map<string, number>();
  const names = new Set([...config.callbacks.map((cb) => cb.name), ...knownNames]);
  const rawCallbacks = (raw as { callbacks?: unknown[] } | null)?.callbacks;
  config.callbacks.forEach((cb, i) => {
    const at = `callbacks[${i}]`;
    const first = seen.get(cb.name);
    if (first !== undefined) {
      problems.push({
        path: `${at}.name`,
        message: `duplicate name "${cb.name}", already used by callbacks[${first}]`,
      });
    } else seen.set(cb.name, i);
    if ((cb.blocking ?? true) && cb.timeout === undefined) {
      problems.push({
        path: `${at}.timeout`,
        message: "a blocking callback needs a timeout in seconds (or set blocking: false)",
      });
    }
    if (
      Array.isArray(cb.run) &&
      (cb.per ?? "batch") === "batch" &&
      cb.run.some((a) => a.includes("{file}"))
    ) {
      problems.push({
        path: `${at}.run`,
        message: 'uses {file} but runs once per batch: use {files}, or set per: "file"',
      });
    }
    if (Array.isArray(cb.run) && cb.run.some((a) => a !== "{files}" && a.includes("{files}"))) {
      problems.push({
        path: `${at}.run`,
        message: "{files} must be an argument of its own: it expands to one argument per file",
      });
    }
    const patterns = typeof cb.pattern === "string" ? [cb.pattern] : cb.pattern;
    for (const problem of validatePatterns(patterns)) {
      problems.push({ path: `${at}.pattern`, message: problem });
    }
    // `inputs: []` is allowed: the check reads nothing besides its files.
    const inputs = typeof cb.inputs === "string" ? [cb.inputs] : (cb.inputs ?? []);
    const globs = inputs.filter((g) => typeof g === "string");
    if (globs.length > 0) {
      for (const problem of validatePatterns(globs))
        problems.push({ path: `${at}.inputs`, message: problem.replace("pattern", "input") });
    }
    if (cb.cwd !== undefined && (cb.cwd.startsWith("/") || cb.cwd.split(/[\\/]/).includes(".."))) {
      problems.push({
        path: `${at}.cwd`,
        message: `got ${describeValue(cb.cwd)}, expected a folder inside the project root`,
      });
    }
    problems.push(...checkTriggerRules(cb, rawCallbacks?.[i], at, names));
  });
  problems.push(...checkAfter(config.callbacks, knownNames));
  if (config.triggerLimits !== undefined && config.hookLimits !== undefined) {
    problems.push({
      path: "hookLimits",
      message: "is the old name of triggerLimits, which is set too: keep triggerLimits only",
    });
  }
  return problems;
}

export type Validation =
  | { ok: true; config: CpilotConfig }
  | { ok: false; problems: ConfigProblem[] };

export function validateConfig(value: unknown, options: ValidateOptions = {}): Validation {
  const known = options.knownNames ?? [];
  const parsed = configSchema.safeParse(value, { reportInput: true });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => ({
      path: formatKeyPath(asWritten(issue.path, value)) || "(top level)",
      message: issueMessage(issue),
    }));
    const shaped = value as Partial<CpilotConfig>;
    if (Array.isArray(shaped?.callbacks)) {
      const sane = shaped.callbacks.filter(
        (cb) => cb && typeof cb.name === "string" && cb.pattern !== undefined,
      );
      if (sane.length === shaped.callbacks.length) {
        try {
          const flagged = new Set(problems.map((p) => p.path));
          problems.push(
            ...crossChecks(shaped as CpilotConfig, value, known).filter(
              (p) => !flagged.has(p.path),
            ),
          );
        } catch {
          // malformed enough that zod's problems say it all
        }
      }
    }
    return { ok: false, problems: dedupe(problems) };
  }
  const config = parsed.data as CpilotConfig;
  const problems = crossChecks(config, value, known);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, config };
}

function dedupe(problems: ConfigProblem[]): ConfigProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\0${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
