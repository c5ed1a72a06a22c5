/** What changed: every source (agent hook, MCP tool, watcher, git) produces this one shape. */
export type ChangeKind = "created" | "modified" | "deleted";

export interface FileChange {
  /** Relative to the batch root, posix separators, never starting with `../`. */
  readonly path: string;
  readonly kind: ChangeKind;
}

export interface Origin {
  readonly surface: "check" | "hook" | "mcp" | "watch" | "api";
  /** e.g. "claude", "gemini"; absent for check and api. */
  readonly agent?: string;
  /** The agent's session id, when it has one. */
  readonly session?: string;
}

export interface EditBatch {
  /** Absolute project root. */
  readonly root: string;
  readonly files: readonly FileChange[];
  readonly origin: Origin;
}
