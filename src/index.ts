/**
 * cpilot as a library: the config helpers and the engine. Call `engine.run(batch)` after each
 * tool batch; the Outcome carries the runs and the resyncs to show the model.
 */
import { AGENT_HOOK_FILES } from "./agents/registry.ts";
import { protectHookFiles } from "./config/hook-files.ts";

// The library's gate protects the files that wire in each agent, as cpilot's own does.
protectHookFiles(AGENT_HOOK_FILES);

export { defineCallback, defineConfig } from "./config/define.ts";
export { loadConfigFile, loadProjectConfig } from "./config/load.ts";
export type { ResolvedCallback, ResolvedConfig } from "./config/resolve.ts";
export type {
  CallbackDef,
  CpilotConfig,
  Overlap,
  Per,
  RunContext,
  RunFunction,
} from "./config/types.ts";
export { applyUpdates, parseUpdates, renderReport, validateUpdate } from "./context/index.ts";
export { createEngine, type Engine, type RunOptions } from "./engine/engine.ts";
export { listRunning, stopSessionRuns } from "./engine/running.ts";
export { SILENT_EXIT_CODE } from "./engine/silent-exit.ts";
export { evaluateWrite } from "./gate/index.ts";
export type { ChangeKind, EditBatch, FileChange, Origin } from "./model/batch.ts";
export type { GateDecision, PendingWrite } from "./model/gate-types.ts";
export type { Outcome, Resync, RunResult, RunStatus } from "./model/outcome.ts";
export { CpilotError } from "./util/errors.ts";
