import { STATE_DIR } from "../util/state-layout.ts";
import { biomeAsRun } from "./biome-as-run.ts";
import { detectDeno } from "./detect-deno.ts";
import { detectNodeTests } from "./detect-node-tests.ts";
import { detectTypecheck } from "./detect-typecheck.ts";
import { RunEvidence } from "./evidence.ts";
import { JS_TS, NODE_TOOLS } from "./node-tools.ts";
import { preCommitHook } from "./pre-commit-hook.ts";
import type { ProjectFiles } from "./project-files.ts";
import { expandBraces, type ScriptTool, scopeArgs, scopePatterns, scriptTools } from "./scripts.ts";
import type { Proposal } from "./spec.ts";

/** Those the scripts run (scoped as they scope them), then those configured or depended on. */
export function detectNode(p: ProjectFiles): { proposals: Proposal[]; notes: string[] } {
  const pkg = p.packageJson();
  const runs = scriptTools(pkg.scripts ?? {});
  const out: Proposal[] = [];
  const evidence = new RunEvidence(p);
  const notes: string[] = [];
  for (const tool of NODE_TOOLS) {
    // `npx @biomejs/biome check` names the package, not its bin
    const inScripts = runs.filter((r) => r.tool === tool.bin || r.tool === tool.pkg);
    const config = p.first(...tool.configs);
    const inPackage = tool.packageKey !== undefined && pkg[tool.packageKey] !== undefined;
    const mentionedIn = evidence.where(tool.bin);
    // A dependency is not evidence: prettier in devDependencies of a project formatted by
    // biome would rewrite it. Scripts, CI, hook configs and the tool's own config are.
    if (inScripts.length === 0 && !config && !inPackage && mentionedIn === undefined) {
      if (p.hasDep(tool.pkg))
        notes.push(
          `${tool.name}: left out, only a dependency (no script, CI, hook config or config file runs it)`,
        );
      continue;
    }
    const scope = scopeOf(inScripts, tool.subcommands);
    const pattern =
      tool.anyFile && scope.length > 0
        ? scopePatterns(scope, ["*"]).map((g) => g.replace(/\/\*\*\/\*\.\*$/, "/**"))
        : scopePatterns(scope, tool.exts);
    if (tool.name === "prettier" && scope.length === 0 && inScripts.length === 0) {
      // Not run by a script: code only, never the README the project may hand-format.
      pattern.splice(0, pattern.length, ...scopePatterns([], JS_TS));
    }
    const staged =
      inScripts.length === 0 && !config ? evidence.lintStagedOnly(tool.bin) : undefined;
    if (staged !== undefined) pattern.splice(0, pattern.length, ...stagedPatterns(staged));
    const ignored = tool.name === "prettier" ? ignoreNegations(p.text(".prettierignore")) : [];
    const why =
      inScripts.length > 0
        ? `package.json script${inScripts.length > 1 ? "s" : ""} ${[...new Set(inScripts.map((r) => `"${r.script}"`))].join(", ")} run${inScripts.length > 1 ? "" : "s"} ${tool.bin}${scope.length > 0 ? ` on ${scope.join(" ")}` : ""}`
        : (mentionedIn ?? config ?? `"${tool.packageKey}" in package.json`);
    const built = withoutUnrunFix(
      tool.build(p.localCommand(tool.bin), p),
      tool.bin,
      inScripts,
      evidence,
    );
    // run by pre-commit alone: the hook's file types and formatting flags are the project's
    const hook =
      inScripts.length === 0 && tool.name === "prettier" ? preCommitHook(p, "prettier") : undefined;
    if (hook !== undefined && hook.patterns.length > 0 && scope.length === 0)
      pattern.splice(0, pattern.length, ...hook.patterns);
    if (hook !== undefined && Array.isArray(built.run)) {
      const flags = hook.args.filter(
        (a) => /^--[\w-]+=\S+$/.test(a) && !/^--(write|check)\b/.test(a),
      );
      const at = built.run.indexOf("{files}");
      if (flags.length > 0 && at !== -1) built.run.splice(at, 0, ...flags);
    }
    const rootOnly =
      inScripts.length === 0 && !config && !inPackage && evidence.onlyAtRoot(tool.bin);
    const ranBy =
      inScripts.length > 0
        ? "script"
        : config !== undefined && !inPackage && mentionedIn === undefined
          ? "config"
          : undefined;
    const proposal: Proposal = {
      why,
      ...(rootOnly ? { rootEvidenceOnly: true } : {}),
      ...(ranBy !== undefined ? { ranBy } : {}),
      callback: {
        name: tool.name,
        ...built,
        run: keptFlags(built.run, tool.bin, inScripts),
        pattern: withNegations(pattern, scriptNegations(inScripts), ignored),
      },
    };
    out.push(
      ...(tool.name === "biome" ? biomeAsRun(proposal, p, inScripts, evidence) : [proposal]),
    );
  }
  notes.push(...biomeNotes(p, out));
  const types = detectTypecheck(p, runs);
  if (types) out.push(types);
  out.push(...detectNodeTests(p, runs));
  const deno = detectDeno(p);
  out.push(...deno);
  return { proposals: out, notes };
}

/**
 * A linter's `--fix` stays only where the project runs it so: a script that runs it as a
 * check means its fixes are the project's to make, and a fix by another version of the
 * tool can rewrite a file into a new error the project's own run would never make.
 */
function withoutUnrunFix<
  T extends { run: string | string[]; fixes?: boolean; description?: string },
>(built: T, bin: string, scripts: readonly ScriptTool[], evidence: RunEvidence): T {
  if (typeof built.run === "string" || !built.run.includes("--fix") || scripts.length === 0)
    return built;
  if (scripts.some((r) => r.args.includes("--fix")) || evidence.near(bin, /--fix\b/)) return built;
  const { fixes: _, ...rest } = built;
  return {
    ...rest,
    description: `lint (${bin}), as the project's scripts run it: reports, fixes nothing`,
    run: built.run.filter((w) => w !== "--fix"),
  } as T;
}

/** `{a,b}` spelled out: lint-staged reads braces and cpilot's patterns do not. */
function stagedPatterns(globs: readonly string[]): string[] {
  return globs.flatMap((g) => {
    const m = /\{([^{}]*)\}/.exec(g);
    if (!m) return [g];
    return stagedPatterns(m[1]!.split(",").map((alt) => g.replace(m[0], alt)));
  });
}

/** biome without VCS ignores would lint cpilot's run records in .cpilot/. */
function biomeNotes(p: ProjectFiles, proposals: readonly Proposal[]): string[] {
  if (!proposals.some((x) => x.callback.name === "biome")) return [];
  const config = p.first("biome.json", "biome.jsonc");
  const vcs = (p.json(config ?? "biome.json") as { vcs?: { useIgnoreFile?: boolean } } | undefined)
    ?.vcs;
  if (vcs?.useIgnoreFile === true) return [];
  return [
    `biome here does not read .gitignore: its \`biome check .\` would also check cpilot's run records in ${STATE_DIR}/; set "vcs": { "enabled": true, "clientKind": "git", "useIgnoreFile": true } in ${config ?? "biome.json"}, or add "!${STATE_DIR}" to its files.includes`,
  ];
}

function scopeOf(runs: readonly ScriptTool[], subcommands: readonly string[] = []): string[] {
  if (runs.length === 0) return [];
  const scopes = runs.map((r) => scopeArgs(r.args, subcommands).filter((a) => !a.startsWith("!")));
  // A script that runs the tool on everything wins over a narrower one.
  if (scopes.some((s) => s.length === 0 || s.includes("."))) return [];
  return [...new Set(scopes.flat())];
}

/** As negated patterns; none when one script runs it without them. */
function scriptNegations(runs: readonly ScriptTool[]): string[] {
  const per = runs.map((r) =>
    r.args.filter((a) => a.startsWith("!")).flatMap((a) => expandBraces(a.slice(1))),
  );
  const first = per[0] ?? [];
  return first.filter((g) => per.every((globs) => globs.includes(g))).map((g) => `!${g}`);
}

/** An extension a negation leaves out entirely is dropped. */
function withNegations(pattern: string[], negations: string[], ignored: string[]): string[] {
  const dropped = pattern.filter((p) => negations.includes(`!**/${p}`));
  const rest = negations.filter((n) => !dropped.some((p) => n === `!**/${p}`));
  return [...pattern.filter((p) => !dropped.includes(p)), ...rest, ...ignored];
}

/** Prettier skips them, so cpilot need not run it. */
function ignoreNegations(text: string | undefined): string[] {
  if (text === undefined) return [];
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#") && !l.startsWith("!"))
    .map((l) => `!${l}`);
}

/** Flags that change what passes: eslint's `--max-warnings N`. */
const KEPT_FLAGS: Readonly<Record<string, readonly string[]>> = {
  eslint: ["--max-warnings", "--report-unused-disable-directives"],
  oxlint: ["--deny-warnings", "--max-warnings"],
};

/** Before `{files}`. */
function keptFlags(
  run: string | string[],
  bin: string,
  scripts: readonly ScriptTool[],
): string | string[] {
  const wanted = KEPT_FLAGS[bin];
  if (wanted === undefined || typeof run === "string" || scripts.length === 0) return run;
  const kept: string[] = [];
  for (const flag of wanted) {
    for (const { args } of scripts) {
      const i = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
      if (i === -1) continue;
      const takesValue = flag === "--max-warnings" && !args[i]!.includes("=");
      kept.push(...args.slice(i, takesValue ? i + 2 : i + 1));
      break;
    }
  }
  if (kept.length === 0) return run;
  const at = run.indexOf("{files}");
  return at === -1 ? [...run, ...kept] : [...run.slice(0, at), ...kept, ...run.slice(at)];
}
