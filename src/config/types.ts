import type { DiagnosticFormat } from "../model/diagnostic.ts";
import type { GateConfig } from "../model/gate-schema.ts";
import type { RunResult, RunStatus } from "../model/outcome.ts";

// The shapes a user writes in `callbacks.config.ts`; the engine's resolved form is in ./resolve.ts.

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
  /** Set when a trigger of another run started this one (named `hook` before triggers were). */
  readonly hook?: TriggerOrigin;
}

/** Why a run was started by a trigger (also in env `CP_HOOK_*` and stdin `hook`). */
export interface TriggerOrigin {
  readonly parentRunId: string;
  readonly parentCallback: string;
  readonly trigger: TriggerEvent;
  /** The rule, as `onExit` or `onOutput[1]`. */
  readonly rule: string;
  /** The output the trigger collected. */
  readonly output: string;
  /** This run's depth: its parent's plus one. */
  readonly depth: number;
}

/** Return nothing or 0 to pass, a number as the exit code, or throw to fail (the message is the output). */
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
   * A bash string (pipefail; files arrive in `CP_*` env and on stdin, never pasted in), an argv
   * array (no shell; `{file}` / `{files}` expand to separate arguments), or a function.
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
  /**
   * React to lines of output. A match collects output for `delay` seconds (default 2), then the
   * action fires with every line since; at most `maxFires` times per run (default 1). Regexes
   * that can backtrack catastrophically are refused.
   *
   * @example
   * onOutput: [{ match: /EADDRINUSE/, action: "stop" }, { match: "ready in", action: "notify", message: "dev server is up" }]
   */
  onOutput?: OutputTrigger | readonly OutputTrigger[];
  /**
   * React to the run's end: `when` "failure", "success" or "any" (default). A run skipped,
   * replaced or stopped by `cpilot stop` fires nothing.
   *
   * @example
   * onExit: { when: "failure", action: "run", callback: "fix-hints" }
   */
  onExit?: ExitTrigger | readonly ExitTrigger[];
  /**
   * Fire once when the run is still going `after` seconds in; the run goes on unless the action
   * is "stop".
   *
   * @example
   * onTimeout: { after: 30, action: "notify", message: "the e2e suite is slow today" }
   */
  onTimeout?: TimeoutTrigger | readonly TimeoutTrigger[];
  /** Keep a non-blocking run going after its agent session ends (a dev server). Default false. */
  persist?: boolean;
  /**
   * Rewrites its files (a formatter, `--fix`): fixers run before the other callbacks on the same
   * files, and two fixers of one file never at once. Default false.
   */
  fixes?: boolean;
  /** Start only once these callbacks' runs of the same batch have ended, whatever their files. */
  after?: readonly string[];

  /** How the output is read: "auto" (default) recognizes known formats; "none" shows the raw tail. */
  format?: DiagnosticFormat;
  /** What an agent sees in full: "new" (default) what its edit brought, the rest counted; "all" every one. */
  report?: "new" | "all";
  /**
   * Replay a recorded result when the check and the content it reads are unchanged. Default
   * true for a command; false for one that reads the network, the clock or outside files.
   */
  cache?: boolean;
  /**
   * Globs of the files a check reads besides its own (`[]`: none), relative to the config's
   * folder: its results are then reused across commits. Unset: any file may be read.
   */
  inputs?: string | string[];
}

export type TriggerEvent = "onOutput" | "onExit" | "onTimeout";

/** What a TypeScript trigger action receives. */
export interface TriggerContext {
  readonly runId: string;
  readonly callback: string;
  readonly trigger: TriggerEvent;
  /** The collected output: lines since the match (onOutput), else the run's last lines. */
  readonly output: string;
  readonly lines: readonly string[];
  /** onExit only: the exit code (null when a signal ended it). */
  readonly exitCode?: number | null;
  /** onExit only: the run's status, e.g. "failed". */
  readonly status?: RunStatus;
  /** The agent session the run belongs to, when it has one. */
  readonly session: string | undefined;
  /** How many triggers deep this run is (0: started by an edit). */
  readonly depth: number;
  /** Stop the run's whole process group (SIGTERM, then SIGKILL). */
  stop(): void;
  /** Put a message in front of the agent at its next hook or MCP call. */
  notify(text: string): void;
  /** Start another callback with this output; resolves null when a trigger limit refused it. */
  run(callback: string): Promise<RunResult | null>;
}

/** A trigger action written in TypeScript; thrown errors are reported, never fatal. */
export type TriggerFunction = (ctx: TriggerContext) => unknown;

/**
 * Stop the run, notify the agent, run another callback by name (it gets the output as
 * `CP_HOOK_OUTPUT` and in its stdin JSON's `hook`), or call a function.
 */
export type TriggerAction =
  | { action: "stop" }
  | { action: "notify"; message?: string }
  | { action: "run"; callback: string }
  | { action: TriggerFunction };

export type OutputTrigger = TriggerAction & {
  /** Tested against each line of output (stdout and stderr, without the newline). */
  match: string | RegExp;
  /** Regex flags for a string `match`, e.g. "i". */
  flags?: string;
  /** Seconds to keep collecting output after a match before firing. Default 2. */
  delay?: number;
  /** Fires per run at most. Default 1. */
  maxFires?: number;
};

export type ExitTrigger = TriggerAction & {
  /** Default "any". */
  when?: "any" | "success" | "failure";
};

export type TimeoutTrigger = TriggerAction & {
  /** Seconds after the run started. */
  after: number;
};

/**
 * Limits on what triggers may start.
 *
 * @example
 * triggerLimits: { maxDepth: 2, maxConcurrent: 1, sessionBudget: 20 }
 */
export interface TriggerLimits {
  /** How deep trigger-started runs may chain (a trigger of a trigger-started run...). Default 3. */
  maxDepth?: number;
  /** Trigger-started runs alive at once, per cpilot process. Default 3. */
  maxConcurrent?: number;
  /** Hook fires per agent session, counted across cpilot processes. Default 50. */
  sessionBudget?: number;
}

export interface CpilotConfig {
  callbacks: CallbackDef[];
  /** Callbacks that may run at once. Default: number of cores. */
  concurrency?: number;
  /** Run logs kept under `.cpilot/runs/`. Default 200. */
  keepLogs?: number;
  /**
   * Files compared before and after callbacks run. "batch" (default): the batch's, at no cost.
   * "tree": also any file git sees changing, at a `git status` before and after each batch.
   */
  resync?: "batch" | "tree";
  /** The write gate: what an agent may write before it writes it. */
  gate?: GateConfig;
  /** Where `<context-update>` blocks may write. */
  context?: ContextConfig;
  /** Limits on triggers (onOutput, onExit, onTimeout). */
  triggerLimits?: TriggerLimits;
  /** @deprecated the old name of `triggerLimits`, still read (not both). */
  hookLimits?: TriggerLimits;
  /** How cpilot talks to an agent through its hooks. */
  agent?: AgentConfig;
  /** `check --staged`: stage what a callback rewrote in a staged file. Default true. */
  stageFixed?: boolean;
  /** When a callback rewriting a file fails the check: "ci" (default, when `CI` is set), "always", "never". */
  failOnChange?: "ci" | "always" | "never";
  /** `check --staged`: set untracked files aside while callbacks run (they are not in the commit). Default true. */
  hideUntracked?: boolean;
}

export interface AgentConfig {
  /** Times per session the agent's stop is blocked while a callback it triggered still fails. 0 never. Default 3. */
  maxStopBlocks?: number;
  /** Show the agent a table of the active callbacks once per session. Default true. */
  announceCallbacks?: boolean;
  /** Lines of a failed run's output shown when none was read as diagnostics. Default 15. */
  tailLines?: number;
}

export interface ContextConfig {
  /** The markdown memory folder, relative to the root. Default `.context`. */
  dir?: string;
  /** Names (globs) of files updates may touch. Default `*.md`. */
  files?: string[];
}

// Names from before triggers were renamed: a cpilot-env.d.ts from an earlier `init` still type-checks.
/** @deprecated renamed TriggerContext */
export type HookContext = TriggerContext;
/** @deprecated renamed TriggerFunction */
export type HookFunction = TriggerFunction;
/** @deprecated renamed TriggerAction */
export type HookAction = TriggerAction;
/** @deprecated renamed TriggerEvent */
export type HookTrigger = TriggerEvent;
/** @deprecated renamed TriggerOrigin */
export type HookOrigin = TriggerOrigin;
/** @deprecated renamed TriggerLimits */
export type HookLimits = TriggerLimits;
/** @deprecated renamed OutputTrigger */
export type OutputHook = OutputTrigger;
/** @deprecated renamed ExitTrigger */
export type ExitHook = ExitTrigger;
/** @deprecated renamed TimeoutTrigger */
export type TimeoutHook = TimeoutTrigger;
