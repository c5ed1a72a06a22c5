import type { ProjectFiles } from "./project-files.ts";
import { type ScriptTool, scopeArgs, scopePatterns, scriptTools } from "./scripts.ts";
import type { CallbackSpec, Proposal } from "./spec.ts";

const JS_TS = ["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"];
const BIOME_EXTS = [...JS_TS, "json", "jsonc", "css"];
const PRETTIER_EXTS = [...JS_TS, "json", "css", "scss", "html", "vue", "yaml", "yml"];

/** One JavaScript tool init knows: how to find it and the callback it becomes. */
interface NodeTool {
  readonly name: string;
  readonly pkg: string;
  readonly bin: string;
  readonly configs: readonly string[];
  readonly packageKey?: "prettier" | "xo" | "eslintConfig";
  readonly subcommands?: readonly string[];
  readonly exts: readonly string[];
  /** The tool skips files it does not know, so a scoped folder needs no extension list. */
  readonly anyFile?: boolean;
  readonly build: (bin: string, p: ProjectFiles) => Omit<CallbackSpec, "name" | "pattern">;
}

const TOOLS: readonly NodeTool[] = [
  {
    name: "biome",
    pkg: "@biomejs/biome",
    bin: "biome",
    configs: ["biome.json", "biome.jsonc"],
    subcommands: ["check", "lint", "format", "ci"],
    exts: BIOME_EXTS,
    anyFile: true,
    build: (bin) => ({
      description: "format and lint, fixing what it can",
      run: [
        bin,
        "check",
        "--write",
        "--no-errors-on-unmatched",
        "--files-ignore-unknown=true",
        "{files}",
      ],
      timeout: 60,
      fixes: true,
    }),
  },
  {
    name: "xo",
    pkg: "xo",
    bin: "xo",
    configs: [
      "xo.config.js",
      "xo.config.mjs",
      "xo.config.cjs",
      "xo.config.ts",
      ".xo-config.json",
      ".xo-config.js",
    ],
    packageKey: "xo",
    exts: JS_TS,
    build: (bin) => ({
      description: "lint and format (xo), fixing what it can",
      run: [bin, "--fix", "{files}"],
      timeout: 120,
      fixes: true,
    }),
  },
  {
    name: "eslint",
    pkg: "eslint",
    bin: "eslint",
    configs: [
      ...["js", "mjs", "cjs", "ts", "mts", "cts"].map((e) => `eslint.config.${e}`),
      ...[
        ".eslintrc",
        ".eslintrc.js",
        ".eslintrc.cjs",
        ".eslintrc.json",
        ".eslintrc.yml",
        ".eslintrc.yaml",
      ],
    ],
    packageKey: "eslintConfig",
    exts: JS_TS,
    build: (bin, p) => ({
      description: "lint",
      // Flat config (eslint 9) warns about ignored files it is handed; say nothing instead.
      run: p.first(...["js", "mjs", "cjs", "ts", "mts", "cts"].map((e) => `eslint.config.${e}`))
        ? [bin, "--no-warn-ignored", "{files}"]
        : [bin, "{files}"],
      timeout: 120,
    }),
  },
  {
    name: "oxlint",
    pkg: "oxlint",
    bin: "oxlint",
    configs: [".oxlintrc.json", "oxlint.config.ts", "oxlintrc.json"],
    exts: JS_TS,
    build: (bin) => ({ description: "lint (oxlint)", run: [bin, "{files}"], timeout: 60 }),
  },
  {
    name: "oxfmt",
    pkg: "oxfmt",
    bin: "oxfmt",
    configs: [".oxfmtrc.json", ".oxfmtrc.jsonc"],
    exts: JS_TS,
    build: (bin) => ({
      description: "format (oxfmt)",
      run: [bin, "{files}"],
      timeout: 60,
      fixes: true,
    }),
  },
  {
    name: "prettier",
    pkg: "prettier",
    bin: "prettier",
    configs: [
      ...[
        ".prettierrc",
        ".prettierrc.json",
        ".prettierrc.yaml",
        ".prettierrc.yml",
        ".prettierrc.json5",
      ],
      ...[
        ".prettierrc.js",
        ".prettierrc.cjs",
        ".prettierrc.mjs",
        "prettier.config.js",
        "prettier.config.mjs",
        "prettier.config.cjs",
        ".prettierrc.toml",
      ],
    ],
    packageKey: "prettier",
    exts: PRETTIER_EXTS,
    anyFile: true,
    build: (bin) => ({
      description: "format",
      run: [bin, "--write", "--ignore-unknown", "--log-level", "warn", "{files}"],
      timeout: 60,
      fixes: true,
    }),
  },
];

/** The binary a project's script would run: its own node_modules/.bin copy. */
export const localBin = (bin: string): string => `node_modules/.bin/${bin}`;

/**
 * JavaScript and TypeScript tools: those the package.json scripts run (scoped as the
 * scripts scope them), then those configured or depended on but run by no script.
 */
export function detectNode(p: ProjectFiles): { proposals: Proposal[]; notes: string[] } {
  const pkg = p.packageJson();
  const runs = scriptTools(pkg.scripts ?? {});
  const out: Proposal[] = [];
  for (const tool of TOOLS) {
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
    `biome here does not read .gitignore: its \`biome check .\` would also check cpilot's run records in .cpilot/; set "vcs": { "enabled": true, "clientKind": "git", "useIgnoreFile": true } in ${config ?? "biome.json"}, or add "!.cpilot" to its files.includes`,
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

function detectTypecheck(p: ProjectFiles, runs: readonly ScriptTool[]): Proposal | undefined {
  if (!p.has("tsconfig.json")) return undefined;
  const checker = runs.find(
    (r) =>
      (r.tool === "tsc" || r.tool === "tsgo" || r.tool === "vue-tsc") &&
      (r.args.includes("--noEmit") || /type/i.test(r.script)),
  );
  const bin = checker?.tool ?? (p.hasDep("typescript") ? "tsc" : undefined);
  if (bin === undefined) return undefined;
  const args = checker ? checker.args : ["--noEmit", "-p", "."];
  if (!args.includes("--noEmit")) args.push("--noEmit");
  const tsconfig = p.json("tsconfig.json") as { include?: unknown } | undefined;
  const include = Array.isArray(tsconfig?.include)
    ? tsconfig.include.filter((i): i is string => typeof i === "string")
    : [];
  const pattern =
    include.length > 0
      ? include.flatMap((i) => scopePatterns([i], ["ts", "tsx", "mts", "cts"]))
      : scopePatterns([], ["ts", "tsx", "mts", "cts"]);
  return {
    why: checker ? `package.json script "${checker.script}" runs ${checker.tool}` : "tsconfig.json",
    callback: {
      name: "typecheck",
      description: "TypeScript types",
      pattern: [...pattern, "tsconfig.json"],
      run: [localBin(bin), ...args].join(" "),
      timeout: 120,
      overlap: "replace",
      successMessage: "types OK",
    },
  };
}

function detectDeno(p: ProjectFiles): Proposal[] {
  const config = p.first("deno.json", "deno.jsonc");
  if (!config) return [];
  return [
    {
      why: config,
      callback: {
        name: "deno-fmt",
        description: "format",
        pattern: scopePatterns([], [...JS_TS, "json", "jsonc", "md"]),
        run: ["deno", "fmt", "--quiet", "{files}"],
        timeout: 60,
        fixes: true,
      },
    },
    {
      why: config,
      callback: {
        name: "deno-lint",
        description: "lint",
        pattern: scopePatterns([], JS_TS),
        run: ["deno", "lint", "--quiet", "{files}"],
        timeout: 60,
      },
    },
  ];
}
