import type { Outcome } from "../model/outcome.ts";

/** "ci" (default) counts only where `CI` is set. */
export function failOnChangeActive(
  mode: "ci" | "always" | "never" | undefined,
  flag: boolean,
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (flag) return true;
  const setting = mode ?? "ci";
  if (setting !== "ci") return setting === "always";
  const ci = env.CI;
  return ci !== undefined && ci !== "" && ci !== "0" && ci.toLowerCase() !== "false";
}

/** In CI a formatter that "passes" by rewriting means the committed code was not formatted. */
export function failOnChanges(outcome: Outcome): Outcome {
  if (outcome.resyncs.length === 0) return outcome;
  const n = outcome.resyncs.length;
  const note = `failOnChange: callbacks rewrote ${n} file${n === 1 ? "" : "s"}; the committed code is not what the callbacks want (run cpilot check locally and commit the result)`;
  return { ...outcome, ok: false, notes: [...outcome.notes, note] };
}
