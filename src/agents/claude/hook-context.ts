import { type AgentSettings, agentSettings } from "../../config/agent-settings.ts";
import type { ResolvedConfig } from "../../config/resolve.ts";
import type { EditBatch, FileChange } from "../../model/batch.ts";
import type { ClaudeHookInput } from "./protocol.ts";

/** What every event handler gets: the parsed input, the loaded config, the environment. */
export interface HookContext {
  readonly input: ClaudeHookInput;
  readonly config: ResolvedConfig;
  readonly settings: AgentSettings;
  readonly env: NodeJS.ProcessEnv;
}

export function hookContext(
  input: ClaudeHookInput,
  config: ResolvedConfig,
  env: NodeJS.ProcessEnv,
): HookContext {
  return { input, config, settings: agentSettings(config.source.agent), env };
}

/** An EditBatch from Claude Code for this session. */
export function claudeBatch(ctx: HookContext, files: readonly FileChange[]): EditBatch {
  return {
    root: ctx.config.root,
    files,
    origin: { surface: "hook", agent: "claude", session: ctx.input.session },
  };
}

/** Env every callback process started from a Claude Code hook sees. */
export function callbackEnv(ctx: HookContext): Record<string, string> {
  return { CP_AGENT: "claude", CP_SESSION_ID: ctx.input.session };
}
