import type { HookTranslator } from "../../hook/call.ts";
import type { HookEventKind, HookReply } from "../../model/hook.ts";
import { type HookContext, hookContext } from "./hook-context.ts";
import {
  afterToolReply,
  blockReply,
  type ClaudeHookInput,
  claudeEvent,
  claudeProtocol,
  contextReply,
  hasBatchEvent,
  leftToCursor,
  NO_REPLY,
  parseClaudeHook,
  REWAKE_FLAG,
  stopReply,
} from "./protocol.ts";

type EventHandler = (ctx: HookContext) => Promise<HookReply> | HookReply;

/**
 * Claude's own answers to the events the pipeline leaves to it, each loaded on demand.
 * After a tool call (post-write, post-tool) the pipeline answers and `afterToolReply`
 * carries it.
 */
const HANDLERS: Partial<Record<HookEventKind, () => Promise<EventHandler>>> = {
  "pre-write": async () => (await import("./pre-tool-use.ts")).onPreToolUse,
  "pre-tool": async () => (await import("./pre-tool-use.ts")).onPreToolUse,
  "batch-end": async () => (await import("./post-tool-batch.ts")).onPostToolBatch,
  stop: async () => (await import("./stop.ts")).onStop,
  "session-start": async () => (await import("./announce.ts")).onSessionContext,
  prompt: async () => (await import("./announce.ts")).onSessionContext,
};

/**
 * Claude Code's translator for the hook pipeline (src/hook/call.ts), which answers its
 * calls with it: its protocol file's reading of a payload and its replies, and Claude's own
 * answers to the events the pipeline leaves to it. The background Stop hook (REWAKE_FLAG)
 * waits for background results instead.
 */
export const claudeTranslator: HookTranslator<ClaudeHookInput> = {
  agent: "claude",
  protocol: claudeProtocol,
  nothing: NO_REPLY,
  parse: parseClaudeHook,
  event: claudeEvent,
  afterTool: afterToolReply,
  batchEndFollows: hasBatchEvent,
  leftToOthers: leftToCursor,
  modes: { [REWAKE_FLAG]: async () => (await import("./rewake.ts")).rewakeAfterStop },
  answer: async (input, event, config, options) => {
    const load = HANDLERS[event.kind];
    if (load === undefined) return NO_REPLY;
    return (await load())(hookContext(input, config, options.env));
  },
  // A broken config is told where the model reads it after each event.
  tell(input) {
    if (input.event === "PreToolUse") return null;
    if (input.event === "PostToolUse") return blockReply;
    if (input.event === "Stop" || input.event === "SubagentStop")
      return (text) => stopReply({ block: false, systemMessage: text });
    return (text) => contextReply(input.event, text);
  },
};
