import { takeDelivery } from "../../agent-session/notices.ts";
import { claimOnce } from "../../agent-session/session-state.ts";
import { afterEdits } from "../../hook/after-edits.ts";
import type { HookReply } from "../../model/hook.ts";
import { bookkeep } from "../../util/bookkeeping.ts";
import type { HookContext } from "./hook-context.ts";
import {
  batchFiles,
  blockReply,
  contextReply,
  hasBatchEvent,
  isShellTool,
  NO_REPLY,
} from "./protocol.ts";
import { checkShellEdits } from "./shell-tool.ts";

/**
 * PostToolUse on an edit tool: run the per-file callbacks for the file (and the per-batch
 * ones too when this Claude Code has no PostToolBatch), deliver waiting background results.
 * Anything failing comes back as decision "block" (the only exit-0 form the model cannot
 * miss; the edit has happened either way); the rest as additionalContext.
 */
export async function onPostToolUse(ctx: HookContext): Promise<HookReply> {
  const { input, config } = ctx;
  if (input.tool && isShellTool(input.tool.toolName)) {
    const waiting = bookkeep(config.root, { failing: [], info: [] }, () =>
      takeDelivery(config.root, input.session),
    );
    const shell = await checkShellEdits(ctx);
    const info = [...waiting.info];
    if (shell.files.length > 0)
      info.unshift(`cpilot: files your command changed: ${shell.files.join(", ")}`);
    return deliver(
      [...shell.protectedNotes, ...shell.report.failures, ...waiting.failing],
      [...shell.report.info, ...info],
    );
  }
  const files = input.tool ? batchFiles(config.root, input.cwd, [input.tool]) : [];
  const batchEvent = files.length > 0 && hasBatchEvent(config.root, ctx.env);
  if (files.length > 0 && !batchEvent && input.tool && input.tool.toolUseId !== "") {
    // Without PostToolBatch this call runs the batch callbacks too: remembered per tool
    // call, so a PostToolBatch that does arrive after all does not run them again.
    const once = `legacy-${safeId(input.tool.toolUseId)}`;
    bookkeep(config.root, false, () => claimOnce(config.root, input.session, once));
  }
  const report = await afterEdits({
    config,
    agent: "claude",
    session: input.session,
    files,
    ...(batchEvent ? { per: "file" as const } : {}),
  });
  return deliver(report.failures, report.info);
}

/** Failures as a block the model cannot miss; the rest as context; nothing when empty. */
function deliver(failures: readonly string[], info: readonly string[]): HookReply {
  if (failures.length > 0) return blockReply([...failures, ...info].join("\n\n"));
  if (info.length > 0) return contextReply("PostToolUse", info.join("\n\n"));
  return NO_REPLY;
}

/** A tool_use id made safe as part of a file name. */
export function safeId(id: string): string {
  return id.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100);
}
