import type { ProjectSnapshot } from "../cache/content.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import type { TreeChanged } from "../engine/engine.ts";
import type { FileChange } from "../model/batch.ts";
import type { StageHold } from "../stage/stage-hold.ts";

/** What a `check --staged` gives the run of its callbacks (check-run.ts). */
export interface StagedCheck {
  /** Relative to the config root. */
  readonly files: FileChange[];
  /** False when a fix could not be combined with unstaged changes (the check must fail). */
  finish(options: { aborted: boolean }): Promise<boolean>;
  /** `files` from the config root. */
  runStarted(files: readonly string[], fixer: boolean): void;
  runEnded(files: readonly string[], fixer: boolean, callback: string): void;
  /** The project's content as git's survey saw it, where the tree holds just that (see staged-project.ts). */
  readonly project?: ProjectSnapshot;
  /**
   * For the engine's `beforeRuns`: only the index was read so far (see check-staged-from-index.ts),
   * so before any run starts the tree is surveyed and the work set aside.
   */
  readonly beforeRuns?: () => Promise<TreeChanged>;
}

export interface StagedStart {
  /**
   * Makes the working tree hold exactly what will be committed, unless there is nothing to
   * set aside (or a dry run). Should cpilot exit before `finish`, the files go back on the
   * way out; should it be killed, the next cpilot call puts them back.
   */
  open(config: ResolvedConfig): Promise<StagedCheck>;
}

/** Nothing staged (or a dry run): the stage folder is let go at once. */
export function nothingStaged(hold: StageHold, files: FileChange[] = []): StagedCheck {
  hold.release();
  return { files, finish: async () => true, runStarted: () => {}, runEnded: () => {} };
}
