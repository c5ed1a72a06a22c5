import { takeDelivery } from "../agent-session/notices.ts";
import { claimOnce, pruneSessions } from "../agent-session/session-state.ts";
import { agentSettings } from "../config/agent-settings.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import type { HookEvent } from "../model/hook.ts";
import { sha1Hex } from "../platform/digest.ts";
import { renderCallbacksPanel } from "../ui/agent/callbacks-panel.ts";
import { bookkeep } from "../util/bookkeeping.ts";

/** SessionStart sources after which the model's history no longer holds the table. */
const HISTORY_REPLACED = new Set(["compact", "clear"]);

/**
 * The session-start and prompt step, the same for every agent. A session that starts
 * (not a compaction, which goes on with the same session) forgets sessions untouched for a
 * week, stops runs left behind by a hook that was killed, and has the project checked in
 * the background (when the event is `heard`): the first edit's before. A prompt that
 * starts the agent's turn records the project's files: what they hold now is the person's,
 * not the agent's. For the model, when the event can tell it something (`heard`): the
 * table of active callbacks once per session (again when a compaction or a clear replaced
 * the history that held it), and every time the results that waited in the inbox. "" when
 * there is nothing to say.
 */
export async function sessionContext(
  at: { config: ResolvedConfig; session: string },
  event: HookEvent,
  heard: boolean,
): Promise<string> {
  const { config, session } = at;
  const start = event.kind === "session-start";
  if (start && event.source !== "compact") {
    pruneSessions(config.root);
    // Runs of a hook that was killed outright (SIGKILL: nothing could stop them) go on
    // without their host: stop them now (they are rare, so is the half-second this costs).
    const { stopOrphans } = await import("../engine/running.ts");
    await stopOrphans(config.root, 500);
  }
  if (event.turn !== undefined && turnStarts(config.root, session, event.turn.id)) {
    const { recordTurnStart } = await import("./shell-edits.ts");
    bookkeep(config.root, undefined, () => recordTurnStart(config, session));
  }
  if (!heard) return "";
  // Detached and once per session: never delays this answer. An agent with no session
  // start event has its first prompt stand for it.
  if (start ? event.source !== "compact" : true)
    (await import("../agent-session/base-check.ts")).startBaseCheck(config, session);
  const parts: string[] = [];
  if (agentSettings(config.source.agent).announceCallbacks) {
    const panel = renderCallbacksPanel(config);
    const retell = start && HISTORY_REPLACED.has(event.source ?? "");
    if (panel !== null && (claimOnce(config.root, session, "announce") || retell))
      parts.push(panel);
  }
  const waiting = takeDelivery(config.root, session);
  parts.push(...waiting.failing, ...waiting.info);
  return parts.join("\n\n");
}

/** The first call of the turn `id` (every call, when the agent names no turn). */
function turnStarts(root: string, session: string, id: string | undefined): boolean {
  if (id === undefined) return true;
  const turn = `turn-${sha1Hex(id).slice(0, 16)}`;
  return bookkeep(root, true, () => claimOnce(root, session, turn));
}
