import { existsSync } from "node:fs";
import { claimOnce } from "../../agent-session/session-state.ts";
import type { ResolvedConfig } from "../../config/resolve.ts";
import type { StopExtras } from "../../hook/stop-gate.ts";
import { sha1Hex } from "../../platform/digest.ts";
import { bookkeep } from "../../util/bookkeeping.ts";
import type { ClaudeHookInput } from "./protocol.ts";
import { lastAssistantText } from "./transcript.ts";

/**
 * The `<context-update>` blocks of Claude Code's final message applied, once per message
 * (a blocked stop brings the same message back only if the agent repeats it). One that
 * failed holds the stop like a failing check; null when there are none.
 */
export async function contextUpdatesAtStop(
  input: ClaudeHookInput,
  config: ResolvedConfig,
): Promise<StopExtras | null> {
  const message =
    input.lastAssistantMessage ??
    (input.transcriptPath ? lastAssistantText(input.transcriptPath) : "");
  if (!message.includes("<context-update")) return null;
  const hash = sha1Hex(message).slice(0, 16);
  const root = config.root;
  if (!bookkeep(root, false, () => claimOnce(root, input.session, `context-${hash}`))) return null;
  const context = await applyNow(config, message);
  return context.ok
    ? { problems: [], info: [context.text] }
    : { problems: [context.text], info: [] };
}

async function applyNow(
  config: ResolvedConfig,
  message: string,
): Promise<{ ok: boolean; text: string }> {
  // Lazy: only a final message with blocks pays for the context code.
  const { applyUpdates } = await import("../../context/apply.ts");
  const { projectContext } = await import("../../context/paths.ts");
  const { renderReport, summarize } = await import("../../context/render.ts");
  const section = config.source.context;
  const where = projectContext(config.root, section?.dir);
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
