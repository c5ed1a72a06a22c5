import { takeDelivery } from "../../agent-session/notices.ts";
import { claimOnce } from "../../agent-session/session-state.ts";
import { agentSettings } from "../../config/agent-settings.ts";
import type { ResolvedConfig } from "../../config/resolve.ts";
import { EMPTY_REPLY, type HookReply } from "../../model/hook.ts";
import { renderCallbacksPanel } from "../../ui/agent/callbacks-panel.ts";
import type { CodexHookInput } from "./payload.ts";

/** SessionStart sources after which the model's history no longer holds the table. */
const HISTORY_REPLACED = new Set(["compact", "clear"]);

/**
 * SessionStart and UserPromptSubmit: the table of active callbacks once per session, and
 * again after a compaction or a clear replaced the history that held it; every time, the
 * background results that waited. Codex adds `additionalContext` of both events to the
 * model's next request.
 */
export async function codexSessionContext(
  input: CodexHookInput,
  config: ResolvedConfig,
): Promise<HookReply> {
  if (input.event === "SessionStart" && input.source !== "compact")
    (await import("../../agent-session/base-check.ts")).startBaseCheck(config, input.session);
  const parts: string[] = [];
  if (agentSettings(config.source.agent).announceCallbacks) {
    const panel = renderCallbacksPanel(config);
    const retell = input.event === "SessionStart" && HISTORY_REPLACED.has(input.source ?? "");
    if (panel !== null && (claimOnce(config.root, input.session, "announce") || retell))
      parts.push(panel);
  }
  const waiting = takeDelivery(config.root, input.session);
  parts.push(...waiting.failing, ...waiting.info);
  if (parts.length === 0) return EMPTY_REPLY;
  const additionalContext = parts.join("\n\n");
  return { json: { hookSpecificOutput: { hookEventName: input.event, additionalContext } } };
}
