import { takeDelivery } from "../agent-session/notices.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import type { FileChange } from "../model/batch.ts";
import type { AgentReport } from "../ui/agent/render-outcome.ts";
import { anyCallbackMatches } from "./any-match.ts";
import { CHECKS_FAILED_AFTER_EDIT } from "./messages.ts";

/**
 * After an agent without a batch event edited files: run every matching callback (per file
 * and per batch) for them, and add what waits in the session's inbox (background results,
 * notifications). Failures first; an empty report when there is nothing to say.
 */
export async function afterEdits(options: {
  config: ResolvedConfig;
  agent: string;
  session: string;
  files: readonly FileChange[];
}): Promise<AgentReport> {
  const { config, agent, session, files } = options;
  const waiting = takeDelivery(config.root, session);
  if (!anyCallbackMatches(config, files)) return { failures: waiting.failing, info: waiting.info };
  const { handleEdits } = await import("./edits.ts");
  const { report } = await handleEdits({
    config,
    batch: { root: config.root, files, origin: { surface: "hook", agent, session } },
    session,
    extraEnv: { CP_AGENT: agent, CP_SESSION_ID: session },
  });
  return {
    failures: [...report.failures, ...waiting.failing],
    info: [...report.info, ...waiting.info],
  };
}

/** One message for the model, failures first with a heading; "" when there is nothing. */
export function reportText(report: AgentReport): string {
  const parts = [...report.failures, ...report.info];
  if (report.failures.length > 0) parts.unshift(CHECKS_FAILED_AFTER_EDIT);
  return parts.join("\n\n");
}
