import { takeDelivery } from "../agent-session/notices.ts";
import { claimOnce, pruneSessions } from "../agent-session/session-state.ts";
import { agentSettings } from "../config/agent-settings.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import type { HookEvent } from "../model/hook.ts";
import { sha1Hex } from "../platform/digest.ts";
import { renderCallbacksPanel } from "../ui/agent/callbacks-panel.ts";
import { bookkeep } from "../util/bookkeeping.ts";
import { pruneRecords } from "./turn-record-store.ts";

/** SessionStart sources after which the model's history no longer holds the table. */
const HISTORY_REPLACED = new Set(["compact", "clear"]);

/**
 * A session start (not a compaction) forgets week-old sessions, stops runs a killed hook
 * left, and checks the project in the background. A prompt starting the turn records the
 * project's files: what they hold now is the person's. The model gets the callbacks' table
 * once per history and the waiting results each time, when the event is `heard`.
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
    bookkeep(config.root, 0, () => pruneRecords(config.root));
    // Runs of a hook killed outright (SIGKILL) go on without their host: stop them now.
    const { stopOrphans } = await import("../engine/running.ts");
    await stopOrphans(config.root, 500);
  }
  if (event.turn !== undefined && turnStarts(config.root, session, event.turn.id)) {
    const { recordTurnStart } = await import("./shell-edits.ts");
    bookkeep(config.root, undefined, () => recordTurnStart(config, session));
  }
  if (!heard) return "";
  // Detached, once per session. An agent with no session start has its first prompt stand for it.
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

/** Every call, when the agent names no turn. */
function turnStarts(root: string, session: string, id: string | undefined): boolean {
  if (id === undefined) return true;
  const turn = `turn-${sha1Hex(id).slice(0, 16)}`;
  return bookkeep(root, true, () => claimOnce(root, session, turn));
}
