import { takeDelivery } from "../agent-session/notices.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import type { StopVerdict } from "../model/hook.ts";
import type { AgentReport } from "../ui/agent/render-outcome.ts";
import { pathMove } from "../ui/seen-from.ts";
import { bookkeep } from "../util/bookkeeping.ts";
import { anyCallbackMatches } from "./after-edits.ts";
import type { ShellEdits } from "./shell-edits.ts";
import type { StopExtras } from "./stop-gate.ts";

/** Checks of edits made without an edit tool; bookkeeping that fails sees nothing rather than stopping the hook. */

/** A command that wrote thousands would flood the agent's context. */
const NAMED_FILES = 50;

export interface ShellCall {
  readonly config: ResolvedConfig;
  readonly agent: string;
  readonly session: string;
  /** The shell command's text, read for what reaches cpilot's records. */
  readonly command?: string | undefined;
  /** Where the agent works: the paths it is told are relative to it. */
  readonly seenFrom?: string | undefined;
}

/** Checked like an edit tool's files; changed protected files are failures, the files named are info. */
export async function shellEditsReport({
  config,
  agent,
  session,
  command,
  seenFrom,
}: ShellCall): Promise<AgentReport> {
  const shell = await import("./shell-edits.ts");
  const none: ShellEdits = { files: [], protectedNotes: [] };
  const found = bookkeep(config.root, none, () => shell.shellEditsSince(config, session, command));
  const report: AgentReport = { failures: [...found.protectedNotes], info: [] };
  if (found.files.length === 0) return report;
  const move = (seenFrom && pathMove(config.root, seenFrom)) || ((path: string) => path);
  const named = found.files
    .slice(0, NAMED_FILES)
    .map((f) => (f.kind === "deleted" ? `${move(f.path)} (deleted)` : move(f.path)));
  const more = found.files.length - named.length;
  const rest = more > 0 ? ` and ${more} more (all checked)` : "";
  report.info.push(`cpilot: files your command changed: ${named.join(", ")}${rest}`);
  const { holdsNested } = await import("./edits.ts");
  if (!anyCallbackMatches(config, found.files) && !holdsNested(config.root, found.files))
    return report;
  const { handleEdits } = await import("./edits.ts");
  const done = await handleEdits({
    config,
    batch: { root: config.root, files: found.files, origin: { surface: "hook", agent, session } },
    session,
    ...(seenFrom ? { seenFrom } : {}),
    extraEnv: { CP_AGENT: agent, CP_SESSION_ID: session },
  });
  report.failures.push(...done.report.failures);
  report.info.push(...done.report.info);
  // What a fixer rewrote is the check's, not the agent's next edit.
  bookkeep(config.root, undefined, () => shell.settle(config, session));
  return report;
}

/** What changed since the last look is checked first, then protected files not put back. */
export async function shellStopProblems(call: ShellCall): Promise<string[]> {
  await shellEditsReport(call);
  const { protectedStillChanged } = await import("./shell-edits.ts");
  return bookkeep(call.config.root, [] as string[], () =>
    protectedStillChanged(call.config, call.session),
  );
}

/** For agents whose shell tool's result also brings what waited. */
export async function shellToolReport(call: ShellCall): Promise<AgentReport> {
  const found = await shellEditsReport(call);
  const waiting = takeDelivery(call.config.root, call.session);
  return {
    failures: [...found.failures, ...waiting.failing],
    info: [...found.info, ...waiting.info],
  };
}

/** `stopper`: a subagent's id, which has its own count of held stops. */
export async function shellStopGate(
  call: ShellCall & {
    readonly stopper?: string | undefined;
    readonly extras?: (() => Promise<StopExtras | null>) | undefined;
  },
): Promise<StopVerdict> {
  // Only a stop re-runs checks.
  const { stopGate } = await import("./stop-gate.ts");
  const problems = await shellStopProblems(call);
  const { config, agent, session, stopper, seenFrom } = call;
  return stopGate({
    config,
    agent,
    session,
    ...(seenFrom ? { seenFrom } : {}),
    ...(stopper ? { stopper } : {}),
    extras: async () => {
      const more = (await call.extras?.()) ?? { problems: [], info: [] };
      return { problems: [...problems, ...more.problems], info: [...more.info] };
    },
  });
}
