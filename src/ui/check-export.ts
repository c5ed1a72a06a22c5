import { githubAnnotations } from "../diagnostics/export-github.ts";
import { toSarif } from "../diagnostics/export-sarif.ts";
import type { Outcome } from "../model/outcome.ts";
import { writeOut } from "../platform/stdio.ts";
import { CpilotError } from "../util/errors.ts";

/** What `cpilot check` prints on stdout besides its human lines on stderr. */
export type CheckFormat = "text" | "json" | "sarif" | "github";

const FORMATS: readonly CheckFormat[] = ["text", "json", "sarif", "github"];

/**
 * The output format from `--format` and `--json` (the same as `--format json`). Inside
 * GitHub Actions (GITHUB_ACTIONS=true) text also carries annotations: see writeCheckExport.
 */
export function checkFormat(flag: string | undefined, json: boolean): CheckFormat {
  if (flag === undefined) return json ? "json" : "text";
  if (!(FORMATS as readonly string[]).includes(flag))
    throw new CpilotError(`Cannot use output format "${flag}": it is not one cpilot writes`, {
      hint: `use --format ${FORMATS.join(", ")}`,
    });
  if (json && flag !== "json")
    throw new CpilotError(`Cannot combine --json and --format ${flag}`, { hint: "pick one" });
  return flag as CheckFormat;
}

/**
 * The machine-readable part of a finished check on stdout: a SARIF 2.1.0 log, or GitHub
 * workflow annotations (`--format github`, or text inside GitHub Actions) so failures
 * land on the pull request's lines. `--format json` is written by the caller (toJson).
 */
export function writeCheckExport(
  outcome: Outcome,
  format: CheckFormat,
  env: Readonly<Record<string, string | undefined>> = process.env,
  properties?: Record<string, unknown>,
): void {
  const root = outcome.batch.root;
  if (format === "sarif") {
    const log = toSarif(outcome.runs, root);
    writeOut(`${JSON.stringify(properties ? { ...log, properties } : log, null, 2)}\n`);
    return;
  }
  if (format === "github" || (format === "text" && env.GITHUB_ACTIONS === "true")) {
    const lines = githubAnnotations(outcome.runs, root, env.GITHUB_WORKSPACE || root);
    if (lines.length > 0) writeOut(`${lines.join("\n")}\n`);
  }
}
