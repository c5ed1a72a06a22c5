/** One callback `cpilot init` proposes: plain data, rendered as TypeScript or JSON later. */
export interface CallbackSpec {
  name: string;
  description?: string;
  pattern: string | string[];
  run: string | string[];
  timeout: number;
  blocking?: boolean;
  overlap?: "queue" | "replace" | "parallel";
  fixes?: boolean;
  successMessage?: string;
  cwd?: string;
}

/** A proposal and where it came from (a script, a config file), for the plan init shows. */
export interface Proposal {
  readonly why: string;
  readonly callback: CallbackSpec;
  /**
   * Found in a package only because the project root's CI or hook config runs the tool:
   * the root's own callback of that tool covers the package, with the root's config.
   */
  readonly rootEvidenceOnly?: boolean;
}

/** What init found that it could not turn into a callback, said in the plan. */
export interface Detection {
  readonly proposals: Proposal[];
  readonly notes: string[];
  /** The project's formatter rewrites files outside what it was given (rustfmt's child modules). */
  readonly resyncTree?: boolean;
  /** Files init writes beside the config (a package's tsconfig that reads siblings' source). */
  readonly files?: readonly { readonly path: string; readonly text: string }[];
  /** Files an earlier init wrote that this plan no longer has: removed when it is written. */
  readonly remove?: readonly string[];
}
