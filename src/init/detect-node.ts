import { STATE_DIR } from "../util/state-layout.ts";
import { detectDeno, detectTypecheck } from "./detect-typecheck.ts";
import { localBin } from "./local-bin.ts";
import { JS_TS, NODE_TOOLS } from "./node-tools.ts";
import type { ProjectFiles } from "./project-files.ts";
import { type ScriptTool, scopeArgs, scopePatterns, scriptTools } from "./scripts.ts";
import type { Proposal } from "./spec.ts";

/**
 * JavaScript and TypeScript tools: those the package.json scripts run (scoped as the
 * scripts scope them), then those configured or depended on but run by no script.
 */
export function detectNode(p: ProjectFiles): { proposals: Proposal[]; notes: string[] } {
  const pkg = p.packageJson();
  const runs = scriptTools(pkg.scripts ?? {});
  const out: Proposal[] = [];
  for (const tool of NODE_TOOLS) {
    const inScripts = runs.filter((r) => r.tool === tool.bin);
    const config = p.first(...tool.configs);
    const inPackage = tool.packageKey !== undefined && pkg[tool.packageKey] !== undefined;
    if (inScripts.length === 0 && !config && !inPackage && !p.hasDep(tool.pkg)) continue;
    // A linter neither run by a script nor configured may be a leftover dependency; a
    // formatter does its job with no config.
    if (inScripts.length === 0 && !config && !inPackage && !tool.anyFile && tool.name !== "oxfmt")
      continue;
    const scope = scopeOf(inScripts, tool.subcommands);
    const pattern =
      tool.anyFile && scope.length > 0
        ? scopePatterns(scope, ["*"]).map((g) => g.replace(/\/\*\*\/\*\.\*$/, "/**"))
        : scopePatterns(scope, tool.exts);
    if (tool.name === "prettier" && scope.length === 0 && inScripts.length === 0) {
      // Not run by a script: code only, never the README the project may hand-format.
      pattern.splice(0, pattern.length, ...scopePatterns([], JS_TS));
    }
    const ignored = tool.name === "prettier" ? ignoreNegations(p.text(".prettierignore")) : [];
    const why =
      inScripts.length > 0
        ? `package.json script${inScripts.length > 1 ? "s" : ""} ${[...new Set(inScripts.map((r) => `"${r.script}"`))].join(", ")} run${inScripts.length > 1 ? "" : "s"} ${tool.bin}${scope.length > 0 ? ` on ${scope.join(" ")}` : ""}`
        : (config ??
          (inPackage ? `"${tool.packageKey}" in package.json` : `${tool.pkg} in package.json`));
    out.push({
      why,
      callback: {
        name: tool.name,
        ...tool.build(localBin(tool.bin), p),
        pattern: [...pattern, ...ignored],
      },
    });
  }
  const notes = biomeNotes(p, out);
  const types = detectTypecheck(p, runs);
  if (types) out.push(types);
  const deno = detectDeno(p);
  out.push(...deno);
  return { proposals: out, notes };
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
  const scopes = runs.map((r) => scopeArgs(r.args, subcommands));
  // A script that runs the tool on everything wins over a narrower one.
  if (scopes.some((s) => s.length === 0 || s.includes("."))) return [];
  return [...new Set(scopes.flat())];
}

/** .prettierignore lines as negated patterns (prettier skips them, so cpilot need not run it). */
function ignoreNegations(text: string | undefined): string[] {
  if (text === undefined) return [];
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#") && !l.startsWith("!"))
    .map((l) => `!${l}`);
}
