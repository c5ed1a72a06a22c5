// Types only: `cpilot init` embeds this file's text in the ambient declarations it writes.

import type { EditBatch } from "./batch.ts";
import type { Diagnostic } from "./diagnostic.ts";

/**
 * passed: exit 0. silent: exit 7, shown to no one. failed: any other exit or a throw.
 * timed_out, skipped (not run), replaced (a newer run started), started (still in background).
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
  readonly tail: readonly string[];
  /** The exit in words: `exit 127 (command not found)`. */
  readonly summary: string;
  readonly successMessage: string | undefined;
  /** Empty when nothing in the output was recognized. */
  readonly diagnostics?: readonly Diagnostic[];
  /** More diagnostics than were read (a hook call reads the first part). */
  readonly diagnosticsCut?: true;
  readonly diagnosticsHidden?: true;
  /** Edited files this failed run stopped before reaching (on errors that were there before): not checked. */
  readonly unreached?: readonly string[];
  /** Its run again for the edited files' crates alone, which reached them. */
  readonly reachedAgain?: {
    readonly runId: string;
    readonly status: RunStatus;
    readonly crates: readonly string[];
  };
  readonly reachAgainOf?: ReachAgain;
  /** Not run: its recorded result for the same check on the same content, replayed. */
  readonly cached?: { readonly key: string; readonly at: number };
  readonly startedBy?: {
    readonly runId: string;
    readonly callback: string;
    readonly hook: string;
    readonly depth: number;
  };
}

export interface ReachAgain {
  readonly runId: string;
  readonly stoppedIn: readonly string[];
  readonly crates: readonly string[];
  /** `-p down --no-deps`. */
  readonly flags: string;
}

/** A file a callback rewrote: the agent's view of it must be corrected. */
export interface Resync {
  readonly path: string;
  /** From what the agent wrote to what is on disk now. */
  readonly diff: string;
  /** Null when the callback deleted the file. */
  readonly newText: string | null;
  readonly oldText: string | null;
}

export interface Outcome {
  readonly batch: EditBatch;
  /** Every blocking run passed or stayed silent. */
  readonly ok: boolean;
  readonly runs: readonly RunResult[];
  readonly resyncs: readonly Resync[];
  readonly notes: readonly string[];
  /** Folders left out before planning (not the project's own, or their own config's), with why. */
  readonly leftOut?: ReadonlyMap<string, string>;
}
