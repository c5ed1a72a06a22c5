import { existsSync } from "node:fs";
import { takeDelivery } from "../../agent-session/notices.ts";
import { bumpCounter, claimOnce, readCounter } from "../../agent-session/session-state.ts";
import { stopReminder } from "../../hook/messages.ts";
import type { HookReply } from "../../model/hook.ts";
import { sha1Hex } from "../../platform/digest.ts";
import { bookkeep, takeStateTrouble } from "../../util/bookkeeping.ts";
import type { HookContext } from "./hook-context.ts";
import { recheckFailing } from "./recheck.ts";
import { stopReply } from "./reply.ts";
import { checkShellEdits } from "./shell-tool.ts";
import { lastAssistantText } from "./transcript.ts";

/**
 * Stop: the agent wants to finish. Block it (decision "block" makes it go on with the
 * reason) while a blocking callback it triggered still fails (re-run now, so a fix made any
 * way counts), or a failed background result was never delivered, or its final message's
 * `<context-update>` blocks failed to apply; at most `agent.maxStopBlocks` times per
 * session, so it never loops. Otherwise let it stop and tell the person what happened.
 */
export async function onStop(ctx: HookContext): Promise<HookReply> {
  const { input, config, settings } = ctx;
  const waiting = takeDelivery(config.root, input.session);
  const used = readCounter(config.root, input.session, "stop-blocks");
  // Once it will not block any more, re-running every check at each stop is wasted time.
  const spent = used >= settings.maxStopBlocks;
  // Files written since the last look without an edit tool are checked first: their
  // failures are recorded, so the re-run below finds them (they are told once).
  const shell = await checkShellEdits(ctx);
  const { protectedStillChanged } = await import("../../hook/shell-edits.ts");
  const protectedOpen = bookkeep(config.root, [] as string[], () =>
    protectedStillChanged(config, input.session),
  );
  const failing = spent ? shell.report.failures : await recheckFailing(ctx);
  const context = await applyContextUpdates(ctx);
  const problems = [...protectedOpen, ...failing, ...waiting.failing];
  if (context?.ok === false) problems.push(context.text);
  if (problems.length > 0 && !spent) {
    const n = bookkeep(config.root, used + 1, () =>
      bumpCounter(config.root, input.session, "stop-blocks"),
    );
    const trouble = takeStateTrouble(config.root);
    const head = stopReminder(problems.length, n, settings.maxStopBlocks);
    const tail = context?.ok === true ? [context.text] : [];
    return stopReply({
      block: true,
      reason: [head, ...problems, ...tail, ...waiting.info, ...(trouble ? [trouble] : [])].join(
        "\n\n",
      ),
    });
  }
  const notes: string[] = [];
  if (
    spent &&
    settings.maxStopBlocks > 0 &&
    claimOnce(config.root, input.session, "stop-blocks-spent")
  ) {
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
  if (context?.ok === true) notes.push(context.text);
  notes.push(...shell.report.info, ...waiting.info);
  const trouble = takeStateTrouble(config.root);
  if (trouble !== null) notes.push(trouble);
  return stopReply({
    block: false,
    ...(notes.length > 0 ? { systemMessage: notes.join("\n\n") } : {}),
  });
}

/**
 * Apply the `<context-update>` blocks of the agent's final message, once per message (a
 * blocked stop brings the same message back only if the agent repeats it verbatim).
 */
async function applyContextUpdates(
  ctx: HookContext,
): Promise<{ ok: boolean; text: string } | null> {
  const message =
    ctx.input.lastAssistantMessage ??
    (ctx.input.transcriptPath ? lastAssistantText(ctx.input.transcriptPath) : "");
  if (!message.includes("<context-update")) return null;
  const hash = sha1Hex(message).slice(0, 16);
  const root = ctx.config.root;
  if (!bookkeep(root, false, () => claimOnce(root, ctx.input.session, `context-${hash}`))) {
    return null;
  }
  return applyNow(ctx, message);
}

async function applyNow(ctx: HookContext, message: string): Promise<{ ok: boolean; text: string }> {
  // Lazy: only a final message with blocks pays for the context code.
  const { applyUpdates } = await import("../../context/apply.ts");
  const { projectContext } = await import("../../context/paths.ts");
  const { renderReport, summarize } = await import("../../context/render.ts");
  const section = ctx.config.source.context;
  const where = projectContext(ctx.config.root, section?.dir);
  const contextDir = where.contextDir;
  const report = applyUpdates(message, {
    ...where,
    ...(section?.files ? { allowedFiles: section.files } : {}),
  });
  const { ok } = summarize(report);
  const text = renderReport(report);
  return {
    ok,
    text: ok
      ? text
      : `${text}\nSend a corrected <context-update> block for each FAILED one only (the applied ones are done).${existsSync(contextDir) ? "" : ` (the context folder ${section?.dir ?? ".context"} does not exist yet)`}`,
  };
}
