/** Context updates: `<context-update>` blocks in an agent's text applied to the markdown files under `.context/`. */
export { type ActionContext, type ActionOutcome, applyAction } from "./actions.ts";
export { applyUpdates, type ContextSession, createContextSession } from "./apply.ts";
export { type FollowEnd, type FollowOptions, followUpdates } from "./follow.ts";
export { parseUpdates, type ScanOptions, type ScanResult, scanUpdates } from "./parse.ts";
export { type ContextFile, projectContext, resolveContextFile } from "./paths.ts";
export { type RenderOptions, renderReport, summarize } from "./render.ts";
export type {
  Action,
  ApplyOptions,
  ApplyReport,
  ParseError,
  ParseResult,
  UpdateCommand,
  UpdateResult,
} from "./types.ts";
export { ACTIONS } from "./types.ts";
export { DEFAULT_ALLOWED_FILES, validateUpdate } from "./validate.ts";
