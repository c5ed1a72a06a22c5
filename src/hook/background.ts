import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Per } from "../config/types.ts";
import type { PlannedRun } from "../engine/plan.ts";
import { newRunId } from "../engine/run-id.ts";
import type { EditBatch } from "../model/batch.ts";
import { selfArgv } from "../platform/self-command.ts";
import { startProcess } from "../platform/start-process.ts";
import { stateDir } from "../util/state-dir.ts";
import { STATE } from "../util/state-layout.ts";

export interface BackgroundSpec {
  readonly root: string;
  /** "" when found from root. */
  readonly configPath: string;
  readonly session: string;
  readonly batch: EditBatch;
  readonly runs: readonly { callback: string; per: Per; files: readonly string[]; runId: string }[];
  readonly extraEnv: Readonly<Record<string, string>>;
  /** Where the agent works: the paths it is told are relative to it. */
  readonly seenFrom?: string;
  /**
   * The folder whose inbox the agent's later calls read (its folder's config's), when a
   * package's config ran these: never below `root`.
   */
  readonly inbox?: string;
}

/** `cpilot _background <spec-file>` (main.ts). */
export const BACKGROUND_COMMAND = "_background";

/** Detached, so the hook answers at once; results reach the session's inbox when they finish. */
export function startBackground(
  planned: readonly PlannedRun[],
  context: Omit<BackgroundSpec, "runs">,
): { callback: string; files: readonly string[]; runId: string }[] {
  if (planned.length === 0) return [];
  const runs = planned.map((p) => ({
    callback: p.callback.name,
    per: p.callback.per,
    files: p.files,
    runId: newRunId(),
  }));
  // beside the inbox it reports to: there a waiter for the agent's results looks for it
  const dir = stateDir(context.inbox ?? context.root, STATE.background);
  const specPath = join(dir, `${runs[0]?.runId}.json`);
  const spec: BackgroundSpec = { ...context, runs };
  writeFileSync(specPath, JSON.stringify(spec));
  const [command, ...args] = selfArgv();
  // Should it not start, the spec stays for `cpilot doctor` and no result ever arrives.
  startProcess(command as string, [...args, BACKGROUND_COMMAND, specPath], {
    cwd: context.root,
    detached: true,
  }).unref();
  return runs;
}
