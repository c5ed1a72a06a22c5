/** Configs a checker reads beside its files: the root's are part of the definition, a nested package's of each run's key. */
export const TOOL_CONFIGS = [
  "package.json",
  "tsconfig.json",
  "biome.json",
  "biome.jsonc",
  ".eslintrc.json",
  ".eslintrc.js",
  ".eslintrc.cjs",
  "eslint.config.js",
  "eslint.config.mjs",
  ".prettierrc",
  "pyproject.toml",
  "ruff.toml",
  ".ruff.toml",
  "setup.cfg",
  "mypy.ini",
  "Cargo.toml",
  "clippy.toml",
  "rustfmt.toml",
  "go.mod",
  // Lockfiles: the versions of the tools and plugins a check loads.
  "package-lock.json",
  "pnpm-lock.yaml",
  "yarn.lock",
  "bun.lock",
  "uv.lock",
  "poetry.lock",
  "Cargo.lock",
  "go.sum",
];

/** The same names, to ask whether a file is one. */
export const TOOL_CONFIG_NAMES: ReadonlySet<string> = new Set(TOOL_CONFIGS);
