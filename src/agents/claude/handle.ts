import type { HookTranslator } from "../../hook/call.ts";
import {
  afterToolReply,
  blockReply,
  type ClaudeHookInput,
  claudeEvent,
  claudeProtocol,
  contextReply,
  hasBatchEvent,
  leftToCursor,
  markBatchEventSeen,
  NO_REPLY,
  parseClaudeHook,
  REWAKE_FLAG,
  stopReply,
} from "./protocol.ts";

/**
 * Claude Code's translator: the gate's verdict in PreToolUse's permission form, and the
 * context updates of its final message at a stop. The background Stop hook (REWAKE_FLAG)
 * waits for background results instead.
 */
export const claudeTranslator: HookTranslator<ClaudeHookInput> = {
  agent: "claude",
  protocol: claudeProtocol,
  nothing: NO_REPLY,
  parse: parseClaudeHook,
  event: claudeEvent,
  async gateReply(input, _event, verdict) {
    return (await import("./pre-tool-use.ts")).preToolUseReply(input, verdict);
  },
  afterTool: afterToolReply,
  context: (event) => (text) => contextReply(event.name, text),
  stopReply: (_event, verdict) =>
    verdict.block
      ? stopReply({ block: true, reason: verdict.reason })
      : stopReply({
          block: false,
          ...(verdict.notes === null ? {} : { systemMessage: verdict.notes }),
        }),
  async stopExtras(input, config) {
    return (await import("./context-at-stop.ts")).contextUpdatesAtStop(input, config);
  },
  batchEndFollows: hasBatchEvent,
  batchEndSeen: markBatchEventSeen,
  leftToOthers: leftToCursor,
  modes: { [REWAKE_FLAG]: async () => (await import("./rewake.ts")).rewakeAfterStop },
  // A broken config is told where the model reads it after each event.
  tell(input) {
    if (input.event === "PreToolUse") return null;
    if (input.event === "PostToolUse") return blockReply;
    if (input.event === "Stop" || input.event === "SubagentStop")
      return (text) => stopReply({ block: false, systemMessage: text });
    return (text) => contextReply(input.event, text);
  },
};
