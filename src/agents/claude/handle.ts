import { hookHandler } from "../../hook/handler.ts";
import type { HookEvent, HookEventKind, HookHandler, HookReply } from "../../model/hook.ts";
import { type HookContext, hookContext } from "./hook-context.ts";
import { type ClaudeHookInput, parseHookInput } from "./payload.ts";
import { claudeProtocol, REWAKE_FLAG } from "./protocol.ts";
import { blockReply, contextReply, NO_REPLY, stopReply } from "./reply.ts";
import { editedPath, isEditTool } from "./tool-files.ts";

type EventHandler = (ctx: HookContext) => Promise<HookReply> | HookReply;

/** Events cpilot answers, each loaded on demand; anything else gets no output. */
const HANDLERS: Record<string, () => Promise<EventHandler>> = {
  PreToolUse: async () => (await import("./pre-tool-use.ts")).onPreToolUse,
  PostToolUse: async () => (await import("./post-tool-use.ts")).onPostToolUse,
  PostToolBatch: async () => (await import("./post-tool-batch.ts")).onPostToolBatch,
  Stop: async () => (await import("./stop.ts")).onStop,
  SubagentStop: async () => (await import("./stop.ts")).onStop,
  SessionStart: async () => (await import("./announce.ts")).onSessionContext,
  UserPromptSubmit: async () => (await import("./announce.ts")).onSessionContext,
};

/** What each event is to the pipeline; an edit tool's PreToolUse is the write gate. */
function kindOf(input: ClaudeHookInput): HookEventKind {
  const edits = isEditTool(input.tool?.toolName ?? "");
  switch (input.event) {
    case "PreToolUse":
      return edits ? "pre-write" : "pre-tool";
    case "PostToolUse":
      return edits ? "post-write" : "post-tool";
    case "PostToolBatch":
      return "batch-end";
    case "Stop":
    case "SubagentStop":
      return "stop";
    case "SessionStart":
      return "session-start";
    default:
      return "prompt";
  }
}

/**
 * Answer one Claude Code hook call: the stdin text in, the protocol reply out. Never throws.
 * The background Stop hook (REWAKE_FLAG) waits for background results instead.
 */
export const handleClaudeHook: HookHandler = async (stdin, options) => {
  if (!options.args?.includes(REWAKE_FLAG)) return answer(stdin, options);
  return (await import("./rewake.ts")).rewakeAfterStop(stdin, options);
};

const answer = hookHandler<ClaudeHookInput>({
  protocol: claudeProtocol,
  nothing: NO_REPLY,
  parse: (stdin, options) => parseHookInput(stdin, options.env.CLAUDE_PROJECT_DIR || options.cwd),
  event(input): HookEvent | null {
    // Cursor runs Claude Code's hooks as well as its own: cpilot answers Cursor once, through
    // `cpilot hook cursor` (`install cursor`), never a second time here.
    if (input.fromCursor) return null;
    if (!Object.hasOwn(HANDLERS, input.event)) return null;
    const calls = input.tool === undefined ? input.toolCalls : [input.tool, ...input.toolCalls];
    return {
      kind: kindOf(input),
      name: input.event,
      session: input.session,
      cwd: input.cwd,
      written: calls.map(editedPath),
    };
  },
  answer: async (input, _event, config, options) => {
    const handler = await (HANDLERS[input.event] as () => Promise<EventHandler>)();
    return handler(hookContext(input, config, options.env));
  },
  // A broken config is told where the model reads it after each event.
  tell(input) {
    if (input.event === "PreToolUse") return null;
    if (input.event === "PostToolUse") return blockReply;
    if (input.event === "Stop" || input.event === "SubagentStop")
      return (text) => stopReply({ block: false, systemMessage: text });
    return (text) => contextReply(input.event, text);
  },
});
