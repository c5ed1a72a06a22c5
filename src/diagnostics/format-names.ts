import type { DiagnosticFormat } from "./types.ts";

/** Tool names a `format:` may give, and the format each prints. */
export const FORMAT_ALIASES: Readonly<Record<string, string>> = {
  mypy: "gnu",
  gcc: "gnu",
  clang: "gnu",
  cargo: "rustc",
  clippy: "rustc",
  "golangci-lint": "go",
};

/** Every value a callback's `format:` accepts (the config schema checks against this). */
export const FORMAT_NAMES = [
  "auto",
  "none",
  "tsc",
  "eslint",
  "eslint-compact",
  "eslint-unix",
  "xo",
  "biome",
  "oxlint",
  "ruff",
  "ruff-json",
  "flake8",
  "pylint",
  "gnu",
  "mypy",
  "gcc",
  "clang",
  "rustc",
  "cargo",
  "clippy",
  "rust-json",
  "go",
  "golangci-lint",
  "shellcheck",
  "black",
  "prettier",
  "rustfmt",
  "pytest",
  "jest",
  "vitest",
  "bun-test",
  "cargo-test",
  "go-test",
  "generic",
] as const satisfies readonly DiagnosticFormat[];
