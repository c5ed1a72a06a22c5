// Types only: `cpilot init` embeds the run result types, which mention these.

export type Severity = "error" | "warning" | "info";

/** Lines and columns are 1-based; line 0 is the whole file, column 0 means the tool gave none. */
export interface Diagnostic {
  /** Root-relative, posix; absolute outside the root; "" when the tool named no file. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  readonly severity: Severity;
  readonly code: string;
  readonly message: string;
  readonly tool: string;
  /** "new" (the edit brought it, or nothing to compare with) or "unchanged"; absent when not compared. */
  readonly baseline?: "new" | "unchanged";
  /**
   * What an "unchanged" one was compared with: an earlier run, or the commit. "unverified":
   * nothing said, most likely there before the edit, but not taken as only pre-existing.
   * "unverified-told": told so on an earlier call: it informs, it does not block.
   */
  readonly since?: "run" | "commit" | "unverified" | "unverified-told";
}

/**
 * "auto" (default) recognizes the formats in the output, "none" reads none, a name uses that
 * format alone; tool names map to the format they print (`mypy` -> `gnu`).
 */
export type DiagnosticFormat =
  | "auto"
  | "none"
  | "tsc"
  | "eslint"
  | "eslint-compact"
  | "eslint-unix"
  | "eslint-json"
  | "xo"
  | "biome"
  | "biome-json"
  | "oxlint"
  | "ruff"
  | "ruff-json"
  | "flake8"
  | "pyright"
  | "pylint"
  | "pylint-json"
  | "gnu"
  | "mypy"
  | "mypy-json"
  | "gcc"
  | "clang"
  | "rustc"
  | "cargo"
  | "clippy"
  | "rust-json"
  | "go"
  | "golangci-lint"
  | "shellcheck"
  | "shellcheck-json"
  | "black"
  | "prettier"
  | "rustfmt"
  | "pytest"
  | "jest"
  | "vitest"
  | "bun-test"
  | "cargo-test"
  | "go-test"
  | "python-traceback"
  | "node-error"
  | "github"
  | "generic";
