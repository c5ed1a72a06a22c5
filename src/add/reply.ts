import type { ManagedCallback } from "../config/managed.ts";
import { validateConfig } from "../config/validate.ts";
import { validatePatterns } from "../match/pattern.ts";

export type ReplyCheck =
  | { ok: true; callback: ManagedCallback }
  | { ok: false; problems: string[] };

/** Keys in the order a person reads a callback; any others follow. */
const ORDER = [
  "name",
  "description",
  "pattern",
  "run",
  "blocking",
  "timeout",
  "per",
  "overlap",
  "successMessage",
];

/** Same keys, canonical order, so the preview and the saved JSON read the same every time. */
export function orderKeys(callback: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ORDER) if (key in callback) out[key] = callback[key];
  for (const [key, value] of Object.entries(callback)) if (!(key in out)) out[key] = value;
  return out;
}

/**
 * As the config would be checked (`validateConfig` plus the pattern rules that need the
 * root). Keys set to null are dropped first: OpenAI-compatible models often send null for
 * a field they mean to leave out. Problems read `key: message`, ready to feed back.
 */
export function checkReply(
  value: unknown,
  root: string,
  otherNames: readonly string[] = [],
): ReplyCheck {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, problems: ["expected a JSON object with the callback's fields"] };
  }
  const cleaned = Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== null),
  );
  const problems: string[] = [];
  // Stand-ins for the callbacks it may name in a hook's "run"; its own name may clash
  // with one of them, which the caller settles by renaming, so that stand-in goes.
  const standIns = otherNames
    .filter((name) => name !== cleaned.name)
    .map((name) => ({ name, pattern: "*", run: "true", timeout: 1 }));
  const result = validateConfig({ callbacks: [cleaned, ...standIns] });
  if (!result.ok) {
    for (const p of result.problems) {
      if (!/^callbacks\[0\](?:\.|$)|^\(top level\)$/.test(p.path)) continue;
      const key = p.path.replace(/^callbacks\[0\]\.?/, "") || "(callback)";
      problems.push(`${key}: ${p.message}`);
    }
  }
  const pattern = cleaned.pattern;
  if (typeof pattern === "string" || Array.isArray(pattern)) {
    const seen = new Set(problems);
    for (const p of validatePatterns(pattern as string | string[], { root })) {
      const line = `pattern: ${p}`;
      if (!seen.has(line)) problems.push(line);
    }
  }
  if (typeof cleaned.run === "function")
    problems.push("run: expected a string or a list of strings");
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, callback: orderKeys(cleaned) as unknown as ManagedCallback };
}
