import { githubAnnotations } from "../diagnostics/export-github.ts";
import { toSarif } from "../diagnostics/export-sarif.ts";
import type { Outcome } from "../model/outcome.ts";
import { writeOut } from "../platform/stdio.ts";
import { CpilotError } from "../util/errors.ts";
import { outcomeSeenFrom, repositoryTop } from "./seen-from.ts";

export type CheckFormat = "text" | "json" | "sarif" | "github";

const FORMATS: readonly CheckFormat[] = ["text", "json", "sarif", "github"];

/** Inside GitHub Actions, text also carries annotations. */
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
 * A SARIF log or GitHub annotations on stdout, paths relative to the repository's top (a
 * package's config judges its files relative to its folder, which GitHub cannot place);
 * `--format json` is written by the caller.
 */
export function writeCheckExport(
  outcome: Outcome,
  format: CheckFormat,
  env: Readonly<Record<string, string | undefined>> = process.env,
  properties?: Record<string, unknown>,
): void {
  const root = repositoryTop(outcome.batch.root);
  const runs = outcomeSeenFrom(outcome, root).runs;
  if (format === "sarif") {
    const log = toSarif(runs, root);
    writeOut(`${JSON.stringify(properties ? { ...log, properties } : log, null, 2)}\n`);
    return;
  }
  if (format === "github" || (format === "text" && env.GITHUB_ACTIONS === "true")) {
    const lines = githubAnnotations(runs, root, env.GITHUB_WORKSPACE || root);
    if (lines.length > 0) writeOut(`${lines.join("\n")}\n`);
  }
}
