import { renderCallbacksPanel } from "../_shared/callbacks-panel.ts";
import { takeDelivery } from "../_shared/notices.ts";
import { claimOnce, pruneSessions } from "../_shared/session-state.ts";
import type { HookContext } from "./hook-context.ts";
import { type ClaudeReply, contextReply } from "./reply.ts";

/**
 * SessionStart and UserPromptSubmit: once per session, the table of active callbacks
 * (whichever event comes first shows it); every time, the results waiting in the inbox.
 * A new session also forgets sessions untouched for a week.
 */
export function onSessionContext(ctx: HookContext): ClaudeReply {
  const { input, config, settings } = ctx;
  if (input.event === "SessionStart") pruneSessions(config.root);
  const parts: string[] = [];
  if (settings.announceCallbacks) {
    const panel = renderCallbacksPanel(config);
    if (panel !== null && claimOnce(config.root, input.session, "announce")) parts.push(panel);
  }
  const waiting = takeDelivery(config.root, input.session);
  parts.push(...waiting.failing, ...waiting.info);
  return contextReply(input.event, parts.join("\n\n"));
}
