import { takeDelivery } from "../../agent-session/notices.ts";
import { wasClaimed } from "../../agent-session/session-state.ts";
import { anyCallbackMatches, batchRunClaim } from "../../hook/after-edits.ts";
import { CHECKS_FAILED_AFTER_EDITS } from "../../hook/messages.ts";
import type { HookReply } from "../../model/hook.ts";
import { callbackEnv, claudeBatch, type HookContext } from "./hook-context.ts";
import { batchFiles, contextReply, markBatchEventSeen, NO_REPLY } from "./protocol.ts";

/**
 * PostToolBatch (Claude Code 2.1+), once after every tool batch: run the once-per-batch
 * callbacks with every file the batch edited. Everything goes out as additionalContext:
 * a "block" here would end the agent's loop (seen with 2.1.330).
 */
export async function onPostToolBatch(ctx: HookContext): Promise<HookReply> {
  const { input, config } = ctx;
  markBatchEventSeen(config.root);
  const waiting = takeDelivery(config.root, input.session);
  // Calls whose PostToolUse already ran the batch callbacks (it did not know of this event).
  const calls = input.toolCalls.filter(
    (c) =>
      c.toolUseId === "" || !wasClaimed(config.root, input.session, batchRunClaim(c.toolUseId)),
  );
  const files = batchFiles(config.root, input.cwd, calls);
  const parts = [...waiting.failing];
  const info = [...waiting.info];
  if (anyCallbackMatches(config, files)) {
    const { handleEdits } = await import("../../hook/edits.ts");
    const { report } = await handleEdits({
      config,
      batch: claudeBatch(ctx, files),
      session: input.session,
      per: "batch",
      extraEnv: callbackEnv(ctx),
    });
    parts.unshift(...report.failures);
    info.unshift(...report.info);
  }
  if (parts.length > 0) {
    parts.unshift(CHECKS_FAILED_AFTER_EDITS);
  }
  const text = [...parts, ...info].join("\n\n");
  return text === "" ? NO_REPLY : contextReply("PostToolBatch", text);
}
