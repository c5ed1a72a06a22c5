import type { Lookup } from "./match.ts";

/** Nothing changed. */
export interface ActionFailure {
  ok: false;
  error: string;
  hint?: string;
  candidates?: string[];
}

export type DocOutcome =
  | {
      ok: true;
      warnings: string[];
      /** Normalized labels, for conflict warnings. */
      touched: string[];
    }
  | ActionFailure;

export type ActionOutcome = (Extract<DocOutcome, { ok: true }> & { text: string }) | ActionFailure;

export interface ActionContext {
  /** The file name as the command wrote it, for messages. */
  file: string;
  moveCompleted: boolean;
  now: Date;
}

export function failure(error: string, hint?: string, candidates?: string[]): ActionFailure {
  const outcome: ActionFailure = { ok: false, error };
  if (hint !== undefined) outcome.hint = hint;
  if (candidates !== undefined && candidates.length > 0) outcome.candidates = candidates;
  return outcome;
}

export function lookupFailure<T>(
  lookup: Exclude<Lookup<T>, { kind: "found" }>,
  what: string,
  describe: (match: T) => string,
): ActionFailure {
  if (lookup.kind === "ambiguous") {
    const found = lookup.matches.map(describe);
    return failure(
      `${what}: ${found.length} blocks match`,
      `matches: ${found.slice(0, 5).join(" | ")}${found.length > 5 ? " | …" : ""}; use the full heading or first line, or add section="…" to narrow it down`,
      found.slice(0, 10),
    );
  }
  const hint =
    lookup.suggestions.length > 0
      ? `nearest: ${lookup.suggestions.join(" | ")}`
      : "the file has no matchable blocks";
  return failure(`${what}: nothing matches`, hint, lookup.suggestions);
}
