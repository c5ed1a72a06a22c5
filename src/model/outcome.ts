// Types only: `cpilot init` embeds this file's text in the ambient declarations it writes.

import type { EditBatch } from "./batch.ts";
import type { Diagnostic } from "./diagnostic.ts";

/**
 * passed: exit 0. silent: exit 7, "nothing to do", shown to no one. failed: any other exit
 * or a throw. timed_out: killed at its timeout. skipped: not run (dry run, aborted before
 * start). replaced: killed because a newer run of the same callback started (overlap
 * "replace"). started: a background run that is still going.
 */
export type RunStatus =
  | "passed"
  | "failed"
  | "timed_out"
  | "skipped"
  | "silent"
  | "replaced"
  | "started";

export interface RunResult {
  readonly id: string;
  readonly callback: string;
  readonly files: readonly string[];
  readonly blocking: boolean;
  readonly status: RunStatus;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly durationMs: number;
  readonly logPath: string;
  /** The last lines of output (bounded). */
  readonly tail: readonly string[];
  /** The exit status in words: `exit 127 (command not found)`. */
  readonly summary: string;
  readonly successMessage: string | undefined;
  /**
   * What the output says, parsed (see src/diagnostics/): set for a run that finished;
   * empty when nothing in it was recognized.
   */
  readonly diagnostics?: readonly Diagnostic[];
  /** The output held more diagnostics than were read (a hook call reads the first part). */
  readonly diagnosticsCut?: true;
  /** The tool printed only some of its diagnostics (its own limit): `unreached` says where. */
  readonly diagnosticsHidden?: true;
  /**
   * Edited files this failed run stopped before reaching (a tool that stops at the first
   * unit that fails, on errors that were there before): not checked, and said so.
   */
  readonly unreached?: readonly string[];
  /**
   * On a run that stopped before the edited files: its run again for their crates alone,
   * which reached them (see `reachAgainOf` on that run).
   */
  readonly reachedAgain?: {
    readonly runId: string;
    readonly status: RunStatus;
    readonly crates: readonly string[];
  };
  /** On a run again for the crates of files an earlier run stopped before (`cargo clippy -p`). */
  readonly reachAgainOf?: ReachAgain;
  /** Not run: its recorded result for the same check on the same content, replayed. */
  readonly cached?: { readonly key: string; readonly at: number };
  /** Set when a trigger of another run started this one. */
  readonly startedBy?: {
    readonly runId: string;
    readonly callback: string;
    /** The rule, as `onExit` or `onOutput[1]`. */
    readonly hook: string;
    readonly depth: number;
  };
}

/** Why a run was made again for some crates alone, and how. */
export interface ReachAgain {
  /** The run that stopped before the edited files. */
  readonly runId: string;
  /** The crates it holds errors in that were there before: where it stopped. */
  readonly stoppedIn: readonly string[];
  /** The crates of the edited files, run again alone. */
  readonly crates: readonly string[];
  /** What was added to the command: `-p down --no-deps`. */
  readonly flags: string;
}

/** A file a callback rewrote (a formatter): the agent's view of it must be corrected. */
export interface Resync {
  readonly path: string;
  /** Unified diff from what the agent wrote to what is on disk now. */
  readonly diff: string;
  /** The text now on disk; null when the callback deleted the file. */
  readonly newText: string | null;
  readonly oldText: string | null;
}

export interface Outcome {
  readonly batch: EditBatch;
  /** True when every blocking run passed or stayed silent. */
  readonly ok: boolean;
  readonly runs: readonly RunResult[];
  readonly resyncs: readonly Resync[];
  /** Things worth saying that are not runs: a replaced run, a skipped huge file. */
  readonly notes: readonly string[];
  /**
   * The folders whose files the engine left out before planning (not the project's own, or
   * judged by their own config), with why; absent when it did not look (no active callback).
   */
  readonly leftOut?: ReadonlyMap<string, string>;
}
