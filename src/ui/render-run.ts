import { agentView } from "../diagnostics/agent-view.ts";
import type { Diagnostic } from "../model/diagnostic.ts";
import type { ReachAgain, RunResult } from "../model/outcome.ts";

export const MAX_LINE = 200;

/** `src/a.ts, src/b.ts, src/c.ts and 4 more`. */
export function filesLabel(files: readonly string[]): string {
  if (files.length === 0) return "the project";
  if (files.length === 1) return files[0] ?? "";
  const shown = files.slice(0, 3);
  const rest = files.length - shown.length;
  if (rest === 0) return `${shown.slice(0, -1).join(", ")} and ${shown.at(-1)}`;
  return `${shown.join(", ")} and ${rest} more`;
}

export function clipLine(line: string, max = MAX_LINE): string {
  const clean = line.replace(/\s+$/, "");
  return clean.length <= max ? clean : `${clean.slice(0, max)}… (${clean.length - max} more chars)`;
}

const ERROR_LINE = /^\s*(?:error|fatal)(?:\[[^\]]*\])?:/i;

/** When lines are cut, the first error line comes first: a short `error:` above a long backtrace. */
export function clipTail(tail: readonly string[], count: number): string[] {
  const lines = [...tail];
  while (lines.length > 0 && lines.at(-1)?.trim() === "") lines.pop();
  const shown = lines.slice(-count).map((l) => clipLine(l));
  if (lines.length > count) {
    shown.unshift("… (earlier output is in the log)");
    const error = lines.slice(0, lines.length - count).find((l) => ERROR_LINE.test(l));
    if (error !== undefined) shown.unshift(clipLine(error));
  }
  return shown;
}

export function isFailure(run: Pick<RunResult, "status">): boolean {
  return run.status === "failed" || run.status === "timed_out";
}

/** Its diagnostics when its output was understood, else the last lines of output. */
export function failureBody(
  run: RunResult,
  options: {
    tailLines: number;
    seen?: Set<string>;
    ownFiles?: string;
    since?: string;
  },
): string[] {
  const diagnostics = run.diagnostics ?? [];
  const show = (ds: readonly Diagnostic[]) =>
    agentView(ds, {
      edited: run.files,
      ...(options.seen ? { seen: options.seen } : {}),
      ...(options.ownFiles ? { ownFiles: options.ownFiles } : {}),
    });
  let view: string[] | null;
  if (diagnostics.length === 0) view = null;
  else if (options.since === undefined) view = show(diagnostics);
  else {
    const fresh = diagnostics.filter((d) => d.baseline === "new").map(unmarked);
    const rest = diagnostics.filter((d) => d.baseline !== "new").map(unmarked);
    if (fresh.length === 0) view = show(rest);
    else {
      view = [`new ${options.since}:`, ...(show(fresh) ?? [])];
      const old = rest.length === 0 ? null : show(rest);
      if (old !== null)
        view.push(
          `already there ${options.since.replace(/^since /, "in ")}, or not known:`,
          ...old,
        );
    }
  }
  const lines = (view ?? []).flatMap((l) => l.split("\n"));
  const unreached = run.unreached ?? [];
  if (unreached.length > 0) lines.unshift(stoppedEarly(run, unreached));
  if (run.reachAgainOf) lines.unshift(ranAgain(run.reachAgainOf));
  // Counts above are of what was read: the agent must know the output goes on.
  if (run.diagnosticsCut && view !== null)
    lines.push(
      `(the output has more than the ${diagnostics.length} diagnostics read here: see the full log)`,
    );
  if (view !== null && diagnostics.some((d) => d.severity === "error")) return lines;
  const tail = clipTail(run.tail, options.tailLines);
  if (tail.length === 0 && lines.length === 0) return ["(no output)"];
  if (lines.length > 0 && tail.length > 0) lines.push("the output ends:");
  return [...lines, ...tail];
}

function stoppedEarly(run: RunResult, unreached: readonly string[]): string {
  const more = unreached.length > 3 ? ` and ${unreached.length - 3} more` : "";
  if (run.diagnosticsHidden)
    return `it printed only some of its diagnostics (its own limit, such as biome's --max-diagnostics), all there before: what it found in ${unreached.slice(0, 3).join(", ")}${more} may not be shown; raise that limit so the check shows it all. The ones it printed:`;
  const stopped = `it stopped at other errors before it reached ${unreached.slice(0, 3).join(", ")}${more}`;
  const again = run.reachedAgain;
  const alone = again ? `for ${cratesLabel(again.crates)} alone (run ${again.runId})` : "";
  if (again?.status === "passed" || again?.status === "failed")
    return `${stopped}; cpilot ran it again ${alone}, which reached your edits there and ${again.status}. The errors it stopped at:`;
  const notDone = again ? `; its run again ${alone} did not finish` : "";
  return `${stopped}${notDone}: your edits there were not checked; fix or silence these errors so the check reaches them:`;
}

function cratesLabel(crates: readonly string[]): string {
  return `crate${crates.length === 1 ? "" : "s"} ${crates.join(", ")}`;
}

function ranAgain(why: ReachAgain): string {
  const where = why.stoppedIn.length === 0 ? "" : ` in ${cratesLabel(why.stoppedIn)}`;
  return `cpilot ran it again for ${cratesLabel(why.crates)} alone (${why.flags}: without the lints of the crates they depend on), because its run ${why.runId} stopped at other errors${where}, before it reached your edits; this run reached them:`;
}

/**
 * A failed run for an agent: name, files, exit in words, what its output says, and the log.
 *
 * @example
 * // ✗ 'lint' failed on src/a.ts: exit 1 (failed)
 * //   src/a.ts:3:7 error prefer-const: 'x' is never reassigned
 * //   run mhx8k2p1-a3f9c1, full log: cpilot logs mhx8k2p1-a3f9c1
 */
export function renderFailure(
  run: RunResult,
  options: { tailLines: number; background?: boolean; seen?: Set<string> },
): string {
  const what = run.status === "timed_out" ? "timed out" : "failed";
  const where = options.background ? ` (background run ${run.id})` : "";
  const lines = [`✗ '${run.callback}'${where} ${what} on ${filesLabel(run.files)}: ${run.summary}`];
  for (const line of failureBody(run, options)) lines.push(`  ${line}`);
  lines.push(`  run ${run.id}, full log: cpilot logs ${run.id}`);
  return lines.join("\n");
}

/** Null when nothing is worth saying; a background run says it passed, as the agent was told it started. */
export function renderSuccess(
  run: RunResult,
  options: { background?: boolean } = {},
): string | null {
  if (run.status !== "passed") return null;
  const message = run.successMessage;
  if (message === "silent") return null;
  if (!options.background && (message === undefined || message === "")) return null;
  const where = options.background ? ` (background run ${run.id})` : "";
  const suffix = message ? `: ${message}` : "";
  return `✓ '${run.callback}'${where} passed on ${filesLabel(run.files)}${suffix}`;
}

export function renderStarted(callback: string, files: readonly string[], runId: string): string {
  return `… '${callback}' started in background on ${filesLabel(files)}, run ${runId}: its result comes with a later message`;
}

function unmarked(d: Diagnostic): Diagnostic {
  const { baseline: _b, since: _s, ...rest } = d;
  return rest;
}
