import type { ProjectFiles } from "./project-files.ts";
import type { CallbackSpec } from "./spec.ts";

export const JS_TS = ["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"];
const BIOME_EXTS = [...JS_TS, "json", "jsonc", "css"];
const PRETTIER_EXTS = [...JS_TS, "json", "css", "scss", "html", "vue", "yaml", "yml"];

export interface NodeTool {
  readonly name: string;
  readonly pkg: string;
  readonly bin: string;
  readonly configs: readonly string[];
  readonly packageKey?: "prettier" | "xo" | "eslintConfig";
  readonly subcommands?: readonly string[];
  readonly exts: readonly string[];
  /** The tool skips files it does not know, so a scoped folder needs no extension list. */
  readonly anyFile?: boolean;
  readonly build: (
    bin: readonly string[],
    p: ProjectFiles,
  ) => Omit<CallbackSpec, "name" | "pattern">;
}

/**
 * In the order they are proposed. Each keeps its default output, which cpilot parses and
 * `cpilot logs` shows readably: not eslint's `--format json` (one long line), biome's
 * `--reporter=json` (experimental) or oxlint's `--format json`.
 */
export const NODE_TOOLS: readonly NodeTool[] = [
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
        ...bin,
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
      run: [...bin, "--fix", "{files}"],
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
        ? [...bin, "--no-warn-ignored", "{files}"]
        : [...bin, "{files}"],
      timeout: 120,
    }),
  },
  {
    name: "oxlint",
    pkg: "oxlint",
    bin: "oxlint",
    configs: [".oxlintrc.json", "oxlint.config.ts", "oxlintrc.json"],
    exts: JS_TS,
    build: (bin) => ({ description: "lint (oxlint)", run: [...bin, "{files}"], timeout: 60 }),
  },
  {
    name: "oxfmt",
    pkg: "oxfmt",
    bin: "oxfmt",
    configs: [".oxfmtrc.json", ".oxfmtrc.jsonc"],
    exts: JS_TS,
    build: (bin) => ({
      description: "format (oxfmt)",
      run: [...bin, "{files}"],
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
    build: (bin, p) => ({
      description: "format",
      // prettier 2 spells it --loglevel, and refuses prettier 3's --log-level
      run: [
        ...bin,
        "--write",
        "--ignore-unknown",
        (p.majorVersion("prettier") ?? 3) < 3 ? "--loglevel" : "--log-level",
        "warn",
        "{files}",
      ],
      timeout: 60,
      fixes: true,
    }),
  },
];
