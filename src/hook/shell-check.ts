import { takeDelivery } from "../agent-session/notices.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import type { StopVerdict } from "../model/hook.ts";
import type { AgentReport } from "../ui/agent/render-outcome.ts";
import { bookkeep } from "../util/bookkeeping.ts";
import { anyCallbackMatches } from "./after-edits.ts";
import type { ShellEdits } from "./shell-edits.ts";
import type { StopExtras } from "./stop-gate.ts";

/**
 * The pipeline's steps for edits made without an edit tool (the record of the project's
 * files is taken when the agent's turn starts, see ./session-context.ts): what changed
 * since the last look, checked after a shell call, and what still holds the stop.
 * Bookkeeping that fails (a .cpilot that cannot be written) sees nothing rather than
 * stopping the hook.
 */

/** The changed files named to the agent at most: a command that wrote thousands floods its context. */
const NAMED_FILES = 50;

export interface ShellCall {
  readonly config: ResolvedConfig;
  readonly agent: string;
  readonly session: string;
}

/**
 * What changed since the last look, checked like an edit tool's files (every matching
 * callback, per file and per batch): the protected files changed and the checks' failures
 * as failures, the files named as info.
 */
export async function shellEditsReport({
  config,
  agent,
  session,
}: ShellCall): Promise<AgentReport> {
  const shell = await import("./shell-edits.ts");
  const none: ShellEdits = { files: [], protectedNotes: [] };
  const found = bookkeep(config.root, none, () => shell.shellEditsSince(config, session));
  const report: AgentReport = { failures: [...found.protectedNotes], info: [] };
  if (found.files.length === 0) return report;
  const named = found.files
    .slice(0, NAMED_FILES)
    .map((f) => (f.kind === "deleted" ? `${f.path} (deleted)` : f.path));
  const more = found.files.length - named.length;
  const rest = more > 0 ? ` and ${more} more (all checked)` : "";
  report.info.push(`cpilot: files your command changed: ${named.join(", ")}${rest}`);
  if (!anyCallbackMatches(config, found.files)) return report;
  const { handleEdits } = await import("./edits.ts");
  const done = await handleEdits({
    config,
    batch: { root: config.root, files: found.files, origin: { surface: "hook", agent, session } },
    session,
    extraEnv: { CP_AGENT: agent, CP_SESSION_ID: session },
  });
  report.failures.push(...done.report.failures);
  report.info.push(...done.report.info);
  // What a fixer rewrote is the check's, not the agent's next edit.
  bookkeep(config.root, undefined, () => shell.settle(config, session));
  return report;
}

/**
 * At the stop: what changed since the last look is checked first (its failures are
 * recorded, so the stop gate's re-run finds them), then the protected files changed
 * through the shell and not put back, each a problem that holds the stop.
 */
export async function shellStopProblems(call: ShellCall): Promise<string[]> {
  await shellEditsReport(call);
  const { protectedStillChanged } = await import("./shell-edits.ts");
  return bookkeep(call.config.root, [] as string[], () =>
    protectedStillChanged(call.config, call.session),
  );
}

/**
 * After a shell call, for the agents whose shell tool's result also brings what waited: what
 * the command changed (as `shellEditsReport`), then the background results not yet told.
 */
export async function shellToolReport(call: ShellCall): Promise<AgentReport> {
  const found = await shellEditsReport(call);
  const waiting = takeDelivery(call.config.root, call.session);
  return {
    failures: [...found.failures, ...waiting.failing],
    info: [...found.info, ...waiting.info],
  };
}

/**
 * The stop step, the same for every agent: the stop gate, with the shell's edits since the
 * last look checked and its problems added, and what the agent adds at its stop (`extras`);
 * `stopper`: a subagent's id when it is the subagent's stop (its own count of held stops).
 */
export async function shellStopGate(
  call: ShellCall & {
    readonly stopper?: string | undefined;
    readonly extras?: (() => Promise<StopExtras | null>) | undefined;
  },
): Promise<StopVerdict> {
  // Loaded only at a stop: it re-runs checks, which no other call does.
  const { stopGate } = await import("./stop-gate.ts");
  const problems = await shellStopProblems(call);
  const { config, agent, session, stopper } = call;
  return stopGate({
    config,
    agent,
    session,
    ...(stopper ? { stopper } : {}),
    extras: async () => {
      const more = (await call.extras?.()) ?? { problems: [], info: [] };
      return { problems: [...problems, ...more.problems], info: [...more.info] };
    },
  });
}
