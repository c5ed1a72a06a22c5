/** Plain data, rendered as TypeScript or JSON later. */
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
  env?: Record<string, string>;
}

/** Where it came from, for the plan. */
export interface Proposal {
  readonly why: string;
  readonly callback: CallbackSpec;
  /** Found only because the root's CI or hooks run the tool: the root's callback covers the package. */
  readonly rootEvidenceOnly?: boolean;
  /** What says the project runs it: a package.json script, or only the tool's config file. */
  readonly ranBy?: "script" | "config";
}

export interface Detection {
  readonly proposals: Proposal[];
  readonly notes: string[];
  /** The project's formatter rewrites files outside what it was given (rustfmt's child modules). */
  readonly resyncTree?: boolean;
  /** A package's tsconfig that reads siblings' source. */
  readonly files?: readonly { readonly path: string; readonly text: string }[];
  /** Written by an earlier init, no longer in the plan: removed when it is written. */
  readonly remove?: readonly string[];
}
