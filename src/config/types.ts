import type { GateConfig } from "../gate/schema.ts";

/**
 * The shapes a user writes in `callbacks.config.ts`. These are the public types; the
 * validated, defaults-applied form the engine uses is `ResolvedCallback` in ./resolve.ts.
 */

/** What a TypeScript `run` function receives. */
export interface RunContext {
  /** Matched files, relative to the project root, posix separators. */
  readonly files: readonly string[];
  /** Absolute project root. */
  readonly root: string;
  /** Aborted on timeout, on replace, or when cpilot is interrupted. */
  readonly signal: AbortSignal;
  readonly runId: string;
  readonly callback: string;
  /** Append a line to the run's log (and its tail). */
  readonly log: (line: string) => void;
}

/**
 * A TypeScript run function. Return nothing or 0 to pass, a number as the exit code,
 * or throw to fail (the message becomes the output).
 */
export type RunFunction = (ctx: RunContext) => unknown;

/** When the same callback is already running: wait for it, kill it, or run beside it. */
export type Overlap = "queue" | "replace" | "parallel";

/** One run for the whole batch with all matched files, or one run per matched file. */
export type Per = "batch" | "file";

export interface CallbackDef {
  /** Unique slug: lowercase letters, digits, `-` and `_`. */
  name: string;
  description?: string;
  /** gitignore-style rules; the last matching rule wins, `!` negates. */
  pattern: string | readonly string[];
  /**
   * A bash string (pipefail; files arrive in `CP_*` env and on stdin, never pasted in),
   * an argv array (no shell; `{file}` / `{files}` expand to separate arguments),
   * or a function.
   */
  run: string | readonly string[] | RunFunction;
  /** Blocking callbacks finish before the agent gets its tool result. Default true. */
  blocking?: boolean;
  /** Seconds. Required when blocking; non-blocking ones default to 600. */
  timeout?: number;
  /** Shown on success; "silent" shows nothing. */
  successMessage?: string;
  /** Working directory, relative to the project root. */
  cwd?: string;
  env?: Record<string, string>;
  /** Default "batch". */
  per?: Per;
  /** Default "queue". */
  overlap?: Overlap;
  /** Default true. `cpilot disable NAME` overrides this per project without editing config. */
  enabled?: boolean;
}

export interface CpilotConfig {
  callbacks: CallbackDef[];
  /** Callbacks that may run at once. Default: number of cores. */
  concurrency?: number;
  /** Run logs kept under `.cpilot/runs/`. Default 200. */
  keepLogs?: number;
  /** The write gate: what an agent may write before it writes it. */
  gate?: GateConfig;
  /** Where `<context-update>` blocks may write. */
  context?: ContextConfig;
}

export interface ContextConfig {
  /** The markdown memory folder, relative to the root. Default `.context`. */
  dir?: string;
  /** Names (globs) of files updates may touch. Default `*.md`. */
  files?: string[];
}
