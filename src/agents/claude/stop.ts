import { existsSync } from "node:fs";
import { claimOnce } from "../../agent-session/session-state.ts";
import { shellStopProblems } from "../../hook/shell-check.ts";
import { stopGate } from "../../hook/stop-gate.ts";
import type { HookReply } from "../../model/hook.ts";
import { sha1Hex } from "../../platform/digest.ts";
import { bookkeep } from "../../util/bookkeeping.ts";
import type { HookContext } from "./hook-context.ts";
import { stopReply } from "./protocol.ts";
import { lastAssistantText } from "./transcript.ts";

/**
 * Stop: the pipeline's stop gate (../../hook/stop-gate.ts) in Claude Code's reply (decision
 * "block" makes it go on with the reason), with the `<context-update>` blocks of its final
 * message applied: one that failed holds the stop like a failing check, and so does a
 * protected file the agent changed through its shell and has not put back.
 */
export async function onStop(ctx: HookContext): Promise<HookReply> {
  const { config, input } = ctx;
  // Files written since the last look without an edit tool are checked first: their
  // failures are recorded, so the gate's re-run finds them (they are told once).
  const protectedOpen = await shellStopProblems({
    config,
    agent: "claude",
    session: input.session,
  });
  const verdict = await stopGate({
    config,
    agent: "claude",
    session: input.session,
    // A subagent's stop is held with its own limit, not the parent's.
    ...(input.event === "SubagentStop" && input.agentId ? { stopper: input.agentId } : {}),
    extras: async () => {
      const context = await applyContextUpdates(ctx);
      const problems = [...protectedOpen];
      if (context === null) return { problems, info: [] };
      return context.ok
        ? { problems, info: [context.text] }
        : { problems: [...problems, context.text], info: [] };
    },
  });
  if (verdict.block) return stopReply({ block: true, reason: verdict.reason });
  return stopReply({
    block: false,
    ...(verdict.notes !== null ? { systemMessage: verdict.notes } : {}),
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
