import { takeDelivery } from "../agent-session/notices.ts";
import { wasClaimed } from "../agent-session/session-state.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import type { HookEvent } from "../model/hook.ts";
import { anyCallbackMatches, batchRunClaim, filesInRoot } from "./after-edits.ts";
import { CHECKS_FAILED_AFTER_EDITS } from "./messages.ts";

/** The per-batch callbacks on the batch's files, but those a call's post-write already ran. */
export async function batchEnd(
  at: { config: ResolvedConfig; agent: string; session: string },
  event: HookEvent,
): Promise<string> {
  const { config, agent, session } = at;
  const waiting = takeDelivery(config.root, session);
  const edits = (event.edits ?? []).filter(
    (e) => !e.callId || !wasClaimed(config.root, session, batchRunClaim(e.callId)),
  );
  const files = filesInRoot(config.root, event.cwd, edits);
  const failures = [...waiting.failing];
  const info = [...waiting.info];
  if (
    anyCallbackMatches(config, files) ||
    (await import("./edits.ts")).holdsNested(config.root, files)
  ) {
    const { handleEdits } = await import("./edits.ts");
    const { report } = await handleEdits({
      config,
      batch: { root: config.root, files, origin: { surface: "hook", agent, session } },
      session,
      per: "batch",
      seenFrom: event.cwd,
      extraEnv: { CP_AGENT: agent, CP_SESSION_ID: session },
    });
    failures.unshift(...report.failures);
    info.unshift(...report.info);
  }
  if (failures.length > 0) failures.unshift(CHECKS_FAILED_AFTER_EDITS);
  return [...failures, ...info].join("\n\n");
}
