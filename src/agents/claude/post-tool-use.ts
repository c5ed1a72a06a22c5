import { takeDelivery } from "../../agent-session/notices.ts";
import { claimOnce } from "../../agent-session/session-state.ts";
import { anyCallbackMatches } from "../../hook/any-match.ts";
import type { FileChange } from "../../model/batch.ts";
import type { HookReply } from "../../model/hook.ts";
import { bookkeep } from "../../util/bookkeeping.ts";
import { hasBatchEvent } from "./batch-event.ts";
import { callbackEnv, claudeBatch, type HookContext } from "./hook-context.ts";
import { blockReply, contextReply, NO_REPLY } from "./reply.ts";
import { checkShellEdits } from "./shell-tool.ts";
import { batchFiles, isShellTool } from "./tool-files.ts";

/**
 * PostToolUse on an edit tool: run the per-file callbacks for the file (and the per-batch
 * ones too when this Claude Code has no PostToolBatch), deliver waiting background results.
 * Anything failing comes back as decision "block" (the only exit-0 form the model cannot
 * miss; the edit has happened either way); the rest as additionalContext.
 */
export async function onPostToolUse(ctx: HookContext): Promise<HookReply> {
  const { input, config } = ctx;
  const waiting = bookkeep(config.root, { failing: [], info: [] }, () =>
    takeDelivery(config.root, input.session),
  );
  const failures = [...waiting.failing];
  const info = [...waiting.info];
  if (input.tool && isShellTool(input.tool.toolName)) {
    const shell = await checkShellEdits(ctx);
    if (shell.files.length > 0)
      info.unshift(`cpilot: files your command changed: ${shell.files.join(", ")}`);
    return deliver(
      [...shell.protectedNotes, ...shell.report.failures, ...failures],
      [...shell.report.info, ...info],
    );
  }
  const files = input.tool ? batchFiles(config.root, input.cwd, [input.tool]) : [];
  try {
    return await afterToolEdits(ctx, files, failures, info);
  } finally {
    // The record of the project's files takes these as the tool and the checks left them.
    const paths = files.map((f) => f.path);
    const { noteToolEdits } = await import("../../hook/shell-edits.ts");
    bookkeep(config.root, undefined, () => noteToolEdits(config, input.session, paths));
  }
}

async function afterToolEdits(
  ctx: HookContext,
  files: FileChange[],
  failures: string[],
  info: string[],
): Promise<HookReply> {
  const { input, config } = ctx;
  if (files.length > 0 && input.tool) {
    const batchEvent = hasBatchEvent(config.root, ctx.env);
    if (!batchEvent && input.tool.toolUseId !== "") {
      const once = `legacy-${safeId(input.tool.toolUseId)}`;
      bookkeep(config.root, false, () => claimOnce(config.root, input.session, once));
    }
    const per = batchEvent ? ("file" as const) : undefined;
    if (!anyCallbackMatches(config, files, per)) return deliver(failures, info);
    const { handleEdits } = await import("../../hook/edits.ts");
    const { report } = await handleEdits({
      config,
      batch: claudeBatch(ctx, files),
      session: input.session,
      ...(per ? { per } : {}),
      extraEnv: callbackEnv(ctx),
    });
    failures.unshift(...report.failures);
    info.unshift(...report.info);
  }
  return deliver(failures, info);
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
