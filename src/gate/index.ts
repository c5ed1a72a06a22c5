export {
  type GateConfig,
  type GateRule,
  gateConfigSchema,
  type ResolvedGateConfig,
  resolveGateConfig,
} from "../model/gate-schema.ts";
export type {
  AskMode,
  GateDecision,
  GatePluginFunction,
  HeadlessMode,
  PendingWrite,
  PluginInput,
  PluginResult,
  TtyPrompt,
} from "../model/gate-types.ts";
export { promptOnTty } from "./ask.ts";
export { type EvaluateOptions, evaluateWrite } from "./evaluate.ts";
export { GATE_LOG, type GateLogEntry, readGateLog } from "./log.ts";
export { isGitPath, secretKind, skeleton } from "./protected.ts";
