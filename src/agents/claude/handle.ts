import {
  configErrorForModel,
  emptyConfig,
  type HookConfigError,
  loadHookConfig,
} from "../../hook/config.ts";
import type { HookReply } from "../../model/hook.ts";
import { mark } from "../../util/trace.ts";
import { type HookContext, hookContext } from "./hook-context.ts";
import { type ClaudeHookInput, parseHookInput } from "./payload.ts";
import { claudeProtocol } from "./protocol.ts";
import { blockReply, contextReply, NO_REPLY, permissionReply, stopReply } from "./reply.ts";
import { editedPath, isEditTool } from "./tool-files.ts";

/** Events cpilot answers; anything else gets no output. */
const HANDLERS: Record<
  string,
  () => Promise<(ctx: HookContext) => Promise<HookReply> | HookReply>
> = {
  PreToolUse: async () => (await import("./pre-tool-use.ts")).onPreToolUse,
  PostToolUse: async () => (await import("./post-tool-use.ts")).onPostToolUse,
  PostToolBatch: async () => (await import("./post-tool-batch.ts")).onPostToolBatch,
  Stop: async () => (await import("./stop.ts")).onStop,
  SessionStart: async () => (await import("./announce.ts")).onSessionContext,
  UserPromptSubmit: async () => (await import("./announce.ts")).onSessionContext,
};

/**
 * Answer one Claude Code hook call: the stdin text in, the protocol reply out. Never
 * throws: a bad payload is a note on stderr; a config error reaches the model once per
 * session (then only stderr); an internal error is one line on stderr, never a stack
 * in the model's context.
 */
export async function handleClaudeHook(
  stdin: string,
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<HookReply> {
  const parsed = parseHookInput(stdin, options.env.CLAUDE_PROJECT_DIR || options.cwd);
  if (!parsed.ok) {
    const { unreadableInputReply } = await import("../../hook/unreadable-input.ts");
    return unreadableInputReply(claudeProtocol, stdin, parsed.error);
  }
  const { input } = parsed;
  const load = HANDLERS[input.event];
  if (load === undefined) return NO_REPLY;
  const calls = input.tool === undefined ? input.toolCalls : [input.tool, ...input.toolCalls];
  const loaded = await loadHookConfig(input.cwd, calls.map(editedPath));
  if (loaded.kind === "none") return NO_REPLY; // cpilot is not set up in this project
  if (loaded.kind === "error") return configError(input, loaded, options.env);
  const { config } = loaded;
  mark("config loaded");
  try {
    const handler = await load();
    return await handler(hookContext(input, config, options.env));
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const stderr = `cpilot: internal error in the ${input.event} hook (please report it): ${message}`;
    // The write gate fails closed, as it does for a broken plugin: no verdict, no write.
    if (input.event === "PreToolUse" && isEditTool(input.tool?.toolName ?? "")) {
      const { gateFailedReason } = await import("../../hook/edit-gate.ts");
      return {
        ...permissionReply({
          decision: "deny",
          reason: gateFailedReason(message),
        }),
        stderr,
      };
    }
    return { json: null, stderr };
  }
}

/**
 * The config cannot be loaded: say so to the model once per session per distinct error
 * (it may be the one who broke it), on stderr every time. Writes pass the gate's built-in
 * protections and its own section when that is still known, else none (see emptyConfig);
 * callbacks do not run until the config is fixed.
 */
async function configError(
  input: ClaudeHookInput,
  loaded: HookConfigError,
  env: NodeJS.ProcessEnv,
): Promise<HookReply> {
  const { root, message } = loaded;
  const stderr = `cpilot: ${message}`;
  if (input.event === "PreToolUse") {
    const { onPreToolUse } = await import("./pre-tool-use.ts");
    const fallback = hookContext(input, await emptyConfig(loaded), env);
    const gated = await onPreToolUse(fallback);
    return { ...gated, stderr };
  }
  const text = configErrorForModel(root, input.session, message);
  if (text === null) return { json: null, stderr };
  if (input.event === "PostToolUse") return { ...blockReply(text), stderr };
  if (input.event === "Stop")
    return { ...stopReply({ block: false, systemMessage: text }), stderr };
  return { ...contextReply(input.event, text), stderr };
}
