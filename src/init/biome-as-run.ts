import type { RunEvidence } from "./evidence.ts";
import type { ProjectFiles } from "./project-files.ts";
import type { ScriptTool } from "./scripts.ts";
import type { Proposal } from "./spec.ts";

/** One way the project runs biome: its subcommand, and whether it writes lint fixes. */
interface BiomeRun {
  readonly sub: string;
  readonly writes: boolean;
}

const SUBS = ["check", "ci", "lint", "format"];
const WRITES = /^--(write|fix|apply|apply-unsafe|unsafe)\b/;
const COMMAND = /(?:^|[^\w.-])biome["']?\s+(check|ci|lint|format)\b(.*)$/;
/** biome's own pre-commit hooks: `biome-check` and `biome-lint` apply safe fixes. */
const HOOK_ID = /^\s*-?\s*id:\s*["']?biome-(check|ci|lint|format)\b/;

/** From package.json scripts, CI, hook runners and lint-staged. */
function biomeRuns(scripts: readonly ScriptTool[], evidence: RunEvidence): BiomeRun[] {
  const runs: BiomeRun[] = scripts
    .filter((r) => SUBS.includes(r.args[0] ?? ""))
    .map((r) => ({ sub: r.args[0]!, writes: r.args.some((a) => WRITES.test(a)) }));
  for (const { line } of evidence.mentions("biome")) {
    const m = COMMAND.exec(line);
    if (m) runs.push({ sub: m[1]!, writes: /(^|\s)--(write|fix|apply)/.test(m[2]!) });
  }
  for (const id of ["biome-check", "biome-lint", "biome-format", "biome-ci"])
    for (const { line } of evidence.mentions(id)) {
      const m = HOOK_ID.exec(line);
      if (m) runs.push({ sub: m[1]!, writes: m[1] === "check" || m[1] === "lint" });
    }
  return runs;
}

/**
 * `biome check --write` also applies biome's safe lint fixes and sorts imports. Where the
 * project only checks with biome (`biome check`, `biome ci`, `biome lint`), those rewrites
 * are not the project's: biome formats, and the check reports the rest, as its own run does.
 * Where it runs neither `check` nor `ci` nor `format`, its formatter is not in use.
 */
export function biomeAsRun(
  proposal: Proposal,
  p: ProjectFiles,
  scripts: readonly ScriptTool[],
  evidence: RunEvidence,
): Proposal[] {
  const c = proposal.callback;
  if (!Array.isArray(c.run)) return [proposal];
  const runs = biomeRuns(scripts, evidence);
  const unseen = runs.length === 0;
  const has = (...subs: string[]) => unseen || runs.some((r) => subs.includes(r.sub));
  const lintFixes = runs.some((r) => r.writes && (r.sub === "check" || r.sub === "lint"));
  const formats = has("check", "ci", "format") && !formatterOff(p);
  if (lintFixes && formats) return [proposal];
  const [bin, , ...rest] = c.run;
  const args = rest.filter((a) => a !== "--write");
  const format: Proposal = {
    why: proposal.why,
    callback: {
      ...c,
      name: `${c.name}-format`,
      description: "format (biome)",
      run: [bin!, "format", "--write", ...args],
      fixes: true,
    },
  };
  if (!has("check", "ci", "lint")) return formats ? [format] : [];
  const sub = has("check", "ci") ? "check" : "lint";
  const { fixes: _, ...checkOnly } = c;
  const check: Proposal = {
    why: lintFixes
      ? `${proposal.why}; it fixes with biome lint, and never formats with biome`
      : `${proposal.why}; it runs biome ${unseen ? "with no script" : sub} without --write: lint fixes and import order reported, not applied`,
    callback: {
      ...checkOnly,
      description: lintFixes
        ? "lint (biome), fixing what it can"
        : `${sub === "check" ? "lint and import order" : "lint"} (biome), as the project runs it: reports, fixes nothing`,
      run: [bin!, sub, ...(lintFixes ? ["--write"] : []), ...args],
      ...(lintFixes ? { fixes: true } : {}),
    },
  };
  return formats ? [format, check] : [check];
}

/** `"formatter": { "enabled": false }` in biome.json. */
function formatterOff(p: ProjectFiles): boolean {
  const config = p.json(p.first("biome.json", "biome.jsonc") ?? "biome.json") as
    | { formatter?: { enabled?: boolean } }
    | undefined;
  return config?.formatter?.enabled === false;
}
