import { takeDelivery } from "../../agent-session/notices.ts";
import { claimOnce, pruneSessions } from "../../agent-session/session-state.ts";
import type { HookReply } from "../../model/hook.ts";
import { renderCallbacksPanel } from "../../ui/agent/callbacks-panel.ts";
import { bookkeep } from "../../util/bookkeeping.ts";
import type { HookContext } from "./hook-context.ts";
import { contextReply } from "./protocol.ts";

/** SessionStart sources after which the model's history no longer holds the table. */
const HISTORY_REPLACED = new Set(["compact", "clear"]);

/**
 * SessionStart and UserPromptSubmit: once per session, the table of active callbacks
 * (whichever event comes first shows it), and again when a compaction or a clear replaced
 * the history that held it; every time, the results waiting in the inbox.
 * A new session also forgets sessions untouched for a week, and stops runs left behind by
 * a hook that was killed.
 */
export async function onSessionContext(ctx: HookContext): Promise<HookReply> {
  const { input, config, settings } = ctx;
  const start = input.event === "SessionStart";
  const retell = start && HISTORY_REPLACED.has(input.source ?? "");
  // A compaction goes on with the same session: nothing to set up again.
  if (start && input.source !== "compact") {
    pruneSessions(config.root);
    // Runs of a hook that was killed outright (SIGKILL: nothing could stop them) go on
    // without their host: stop them now (they are rare, so is the half-second this costs).
    const { stopOrphans } = await import("../../engine/running.ts");
    await stopOrphans(config.root, 500);
    // The project as the session finds it, checked in the background: the first edit's before.
    (await import("../../agent-session/base-check.ts")).startBaseCheck(config, input.session);
  }
  if (input.event === "UserPromptSubmit") {
    // The turn starts: what the project's files are now is the person's, not the agent's.
    const { recordTurnStart } = await import("../../hook/shell-edits.ts");
    bookkeep(config.root, undefined, () => recordTurnStart(config, input.session));
  }
  const parts: string[] = [];
  if (settings.announceCallbacks) {
    const panel = renderCallbacksPanel(config);
    const first = panel !== null && claimOnce(config.root, input.session, "announce");
    if (panel !== null && (first || retell)) parts.push(panel);
  }
  const waiting = takeDelivery(config.root, input.session);
  parts.push(...waiting.failing, ...waiting.info);
  return contextReply(input.event, parts.join("\n\n"));
}
