import { anyCallbackMatches } from "../../hook/after-edits.ts";
import type { ShellEdits } from "../../hook/shell-edits.ts";
import type { AgentReport } from "../../ui/agent/render-outcome.ts";
import { bookkeep } from "../../util/bookkeeping.ts";
import { callbackEnv, claudeBatch, type HookContext } from "./hook-context.ts";

/**
 * The files changed since the turn started (or since the last look) that no edit tool
 * reported, checked like an edit tool's (every matching callback, per file and per batch:
 * no batch event lists them), with the protected ones told apart. Bookkeeping that fails
 * (a .cpilot that cannot be written) sees nothing rather than stopping the hook.
 */
export async function checkShellEdits(
  ctx: HookContext,
): Promise<{ report: AgentReport; protectedNotes: string[]; files: readonly string[] }> {
  const { config, input } = ctx;
  const shell = await import("../../hook/shell-edits.ts");
  const none: ShellEdits = { files: [], protectedNotes: [] };
  const found = bookkeep(config.root, none, () => shell.shellEditsSince(config, input.session));
  const report: AgentReport = { failures: [], info: [] };
  if (found.files.length > 0 && anyCallbackMatches(config, found.files)) {
    const { handleEdits } = await import("../../hook/edits.ts");
    const done = await handleEdits({
      config,
      batch: claudeBatch(ctx, found.files),
      session: input.session,
      extraEnv: callbackEnv(ctx),
    });
    report.failures.push(...done.report.failures);
    report.info.push(...done.report.info);
    bookkeep(config.root, undefined, () => shell.settle(config, input.session));
  }
  return {
    report,
    protectedNotes: found.protectedNotes,
    files: found.files.map((f) => (f.kind === "deleted" ? `${f.path} (deleted)` : f.path)),
  };
}
