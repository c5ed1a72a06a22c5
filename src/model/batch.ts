/** Every source (agent hook, MCP tool, watcher, git) produces this one shape. */
export type ChangeKind = "created" | "modified" | "deleted";

export interface FileChange {
  /** Relative to the batch root, posix, never starting with `../`. */
  readonly path: string;
  readonly kind: ChangeKind;
}

export interface Origin {
  readonly surface: "check" | "hook" | "mcp" | "watch" | "api";
  readonly agent?: string;
  readonly session?: string;
}

export interface EditBatch {
  readonly root: string;
  readonly files: readonly FileChange[];
  readonly origin: Origin;
}
