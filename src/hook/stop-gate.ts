import { takeDelivery } from "../agent-session/notices.ts";
import { bumpCounter, claimOnce, readCounter } from "../agent-session/session-state.ts";
import { agentSettings } from "../config/agent-settings.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import type { StopVerdict } from "../model/hook.ts";
import { sha1Hex } from "../platform/digest.ts";
import { bookkeep, takeStateTrouble } from "../util/bookkeeping.ts";
import { stopReminder } from "./messages.ts";
import { judgedFailures, recheckFailing } from "./recheck.ts";

/** Claude Code's context updates; problems block like failures. */
export interface StopExtras {
  readonly problems: readonly string[];
  readonly info: readonly string[];
}

/** One per subagent, so one that used its held stops up leaves the parent's gate whole. */
function stopCounterName(stopper: string | undefined): string {
  return stopper ? `stop-blocks-sub-${sha1Hex(stopper).slice(0, 16)}` : "stop-blocks";
}

/**
 * Holds the stop while a blocking callback it triggered still fails (re-run now, so a fix
 * made any way counts), a failed background result was never delivered, or an extra
 * problem stands; at most `agent.maxStopBlocks` times per session, so it never loops.
 */
export async function stopGate(options: {
  config: ResolvedConfig;
  agent: string;
  session: string;
  extras?: () => Promise<StopExtras | null>;
  /** A subagent's id when not the session's own stop. */
  stopper?: string;
  /** Where the agent works: the paths it is told are relative to it. */
  seenFrom?: string;
}): Promise<StopVerdict> {
  const { config, agent, session } = options;
  const settings = agentSettings(config.source.agent);
  const counter = stopCounterName(options.stopper);
  const used = readCounter(config.root, session, counter);
  // Once it will not block any more, re-running every check at each stop is wasted time.
  const spent = used >= settings.maxStopBlocks;
  const judged = spent ? [] : await judgedFailures(config, session);
  const waiting = takeDelivery(config.root, session);
  const failing = await recheckFailing(judged, {
    agent,
    session,
    tailLines: settings.tailLines,
    seenFrom: options.seenFrom ?? config.root,
  });
  const extras = (await options.extras?.()) ?? { problems: [], info: [] };
  const problems = [...failing, ...waiting.failing, ...extras.problems];
  if (problems.length > 0 && !spent) {
    const n = bookkeep(config.root, used + 1, () => bumpCounter(config.root, session, counter));
    const trouble = takeStateTrouble(config.root);
    const head = stopReminder(problems.length, n, settings.maxStopBlocks);
    const parts = [head, ...problems, ...extras.info, ...waiting.info];
    if (trouble !== null) parts.push(trouble);
    return { block: true, reason: parts.join("\n\n") };
  }
  const notes: string[] = [];
  if (spent && settings.maxStopBlocks > 0 && claimOnce(config.root, session, `${counter}-spent`)) {
    notes.push(
      `cpilot: stopped blocking: the agent was reminded ${used} time${used === 1 ? "" : "s"} (agent.maxStopBlocks = ${settings.maxStopBlocks}) and may stop now; checks are not re-run at its stops for the rest of this session (\`cpilot check\` runs them)`,
    );
  }
  if (problems.length > 0) {
    notes.push(
      spent
        ? "cpilot: these were still open when the agent stopped:"
        : `cpilot: still failing after ${used} reminder${used === 1 ? "" : "s"} (agent.maxStopBlocks = ${settings.maxStopBlocks}); the agent was allowed to stop:`,
      ...problems,
    );
  }
  notes.push(...extras.info, ...waiting.info);
  const trouble = takeStateTrouble(config.root);
  if (trouble !== null) notes.push(trouble);
  return { block: false, notes: notes.length > 0 ? notes.join("\n\n") : null };
}
