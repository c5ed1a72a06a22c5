import type { ResolvedConfig } from "../config/resolve.ts";
import type { AgentReport } from "../ui/agent/render-outcome.ts";
import { bookkeep } from "../util/bookkeeping.ts";
import { anyCallbackMatches } from "./any-match.ts";
import type { ShellEdits } from "./shell-edits.ts";

/** What a look at the project after a shell call found, and what its checks said. */
export interface ShellCheck {
  readonly report: AgentReport;
  /** One message per protected file changed (already on disk: it must be reverted). */
  readonly protectedNotes: readonly string[];
  /** The files the shell changed, as the model is told them. */
  readonly files: readonly string[];
}

/**
 * The files changed since the turn started (or since the last look) that no edit tool
 * reported, checked like an edit tool's (every matching callback, per file and per batch),
 * with the protected ones told apart. For the agents whose adapters have no batch of their
 * own; bookkeeping that fails (a .cpilot that cannot be written) sees nothing rather than
 * stopping the hook.
 */
export async function checkShellEdits(
  config: ResolvedConfig,
  agent: string,
  session: string,
): Promise<ShellCheck> {
  const shell = await import("./shell-edits.ts");
  const none: ShellEdits = { files: [], protectedNotes: [] };
  const found = bookkeep(config.root, none, () => shell.shellEditsSince(config, session));
  const report: AgentReport = { failures: [], info: [] };
  if (found.files.length > 0 && anyCallbackMatches(config, found.files)) {
    const { handleEdits } = await import("./edits.ts");
    const done = await handleEdits({
      config,
      batch: { root: config.root, files: found.files, origin: { surface: "hook", agent, session } },
      session,
      extraEnv: { CP_AGENT: agent, CP_SESSION_ID: session },
    });
    report.failures.push(...done.report.failures);
    report.info.push(...done.report.info);
    // What a fixer rewrote is not the agent's next edit.
    bookkeep(config.root, undefined, () => shell.settle(config, session));
  }
  return {
    report,
    protectedNotes: found.protectedNotes,
    files: found.files.map((f) => (f.kind === "deleted" ? `${f.path} (deleted)` : f.path)),
  };
}

/** The shell call's findings as one report: protected files first, then the checks' failures. */
export function shellReport(check: ShellCheck): AgentReport {
  const info = [...check.report.info];
  if (check.files.length > 0)
    info.unshift(`cpilot: files your command changed: ${check.files.join(", ")}`);
  return { failures: [...check.protectedNotes, ...check.report.failures], info };
}

/** The agent's turn starts: what the project's files are now is the person's, not the agent's. */
export async function startTurn(config: ResolvedConfig, session: string): Promise<void> {
  const { recordTurnStart } = await import("./shell-edits.ts");
  bookkeep(config.root, undefined, () => recordTurnStart(config, session));
}

/** An edit tool wrote `files` and cpilot checked them: the record takes them as they are now. */
export async function noteEdited(
  config: ResolvedConfig,
  session: string,
  files: readonly string[],
): Promise<void> {
  if (files.length === 0) return;
  const { noteToolEdits } = await import("./shell-edits.ts");
  bookkeep(config.root, undefined, () => noteToolEdits(config, session, files));
}

/**
 * At the agent's stop: what the shell wrote since the last look is checked first (its
 * failures are recorded, so the stop gate's re-run finds them), and every protected file it
 * changed in this session and has not put back is a problem that holds the stop.
 */
export async function shellStopProblems(
  config: ResolvedConfig,
  agent: string,
  session: string,
): Promise<string[]> {
  await checkShellEdits(config, agent, session);
  const { protectedStillChanged } = await import("./shell-edits.ts");
  return bookkeep(config.root, [] as string[], () => protectedStillChanged(config, session));
}
