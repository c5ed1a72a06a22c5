// Types only: `cpilot init` embeds the run result types, which mention these.

/** How bad a diagnostic is, in the three words every consumer (SARIF, GitHub) knows. */
export type Severity = "error" | "warning" | "info";

/**
 * One problem a checker reported, located in a file. Lines and columns are 1-based; a line
 * of 0 means the whole file (a formatter's "would reformat"), a column of 0 means the tool
 * gave none.
 */
export interface Diagnostic {
  /** Relative to the project root, posix separators; absolute when outside the root; "" when the tool named no file. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine?: number;
  readonly endColumn?: number;
  readonly severity: Severity;
  /** The tool's rule or error code (`TS2322`, `no-unused-vars`, `E0425`); "" when none. */
  readonly code: string;
  readonly message: string;
  /** The tool that printed it, as cpilot recognized it: `tsc`, `eslint`, `ruff`… */
  readonly tool: string;
  /**
   * Compared with the last run on the file's previous content: "new" (the edit introduced
   * it, or nothing to compare with) or "unchanged" (it was already there). Absent when no
   * comparison was made.
   */
  readonly baseline?: "new" | "unchanged";
  /**
   * What an "unchanged" diagnostic was compared with: an earlier run, or the committed file;
   * "unverified" when nothing told: a file the agent did not edit, as in the last commit,
   * before any run of the callback was read whole. Most likely there before the edit, but
   * an edit elsewhere may have brought it (a type it changed): the agent is told so, and a
   * run failing on it is not taken for one failing only on what was there.
   * "unverified-told": such a one, told so on an earlier call: it informs, it does not block.
   */
  readonly since?: "run" | "commit" | "unverified" | "unverified-told";
}

/**
 * How a callback's output is read as diagnostics: "auto" (default) recognizes the formats
 * in it, "none" reads none (the agent sees the raw tail), a name uses that format alone.
 * Tool names map to the format they print (`mypy`, `gcc`, `clang` -> `gnu`, `clippy`,
 * `cargo` -> `rustc`, `golangci-lint` -> `go`).
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
