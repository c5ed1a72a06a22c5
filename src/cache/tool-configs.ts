/**
 * Tool configs a checker reads beside the files it is given: a change to one is a change to
 * the check. The root's are part of the definition; a nested package's (the folders between
 * the root and the run's files, or its working folder) are part of each run's key
 * (./package-files.ts).
 */
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
