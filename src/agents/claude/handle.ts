import { hookHandler } from "../../hook/call.ts";
import type { HookEvent, HookEventKind, HookHandler, HookReply } from "../../model/hook.ts";
import { type HookContext, hookContext } from "./hook-context.ts";
import {
  blockReply,
  type ClaudeHookInput,
  claudeProtocol,
  contextReply,
  editedPath,
  isEditTool,
  NO_REPLY,
  parseHookInput,
  REWAKE_FLAG,
  stopReply,
} from "./protocol.ts";

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
  if (options.args?.includes(REWAKE_FLAG))
    return (await import("./rewake.ts")).rewakeAfterStop(stdin, options);
  if (CURSOR_KEYS.test(stdin) && (await leftToCursor(stdin, options))) return NO_REPLY;
  return answer(stdin, options);
};

/** A cheap first look for Cursor's payload fields; the parsed payload decides. */
const CURSOR_KEYS = /"(cursor_version|conversation_id|generation_id|workspace_roots)"/;

/**
 * Cursor runs Claude Code's hooks as well as its own: where cpilot's Cursor hooks answer it
 * (`install cursor`), its call here is left to them, so one Cursor edit runs cpilot once.
 */
async function leftToCursor(stdin: string, options: Parameters<HookHandler>[1]): Promise<boolean> {
  const parsed = parseHookInput(stdin, options.env.CLAUDE_PROJECT_DIR || options.cwd);
  if (!parsed.ok || parsed.input.fromCursor === null) return false;
  const { cpilotInCursorHooks } = await import("../kit/cursor-hooks.ts");
  return cpilotInCursorHooks(parsed.input.fromCursor, options.env.HOME);
}

const answer = hookHandler<ClaudeHookInput>({
  protocol: claudeProtocol,
  nothing: NO_REPLY,
  parse: (stdin, options) => parseHookInput(stdin, options.env.CLAUDE_PROJECT_DIR || options.cwd),
  event(input): HookEvent | null {
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
