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
  /** What an "unchanged" diagnostic was compared with: an earlier run, or the committed file. */
  readonly since?: "run" | "commit";
}
