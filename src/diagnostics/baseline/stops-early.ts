import { ProjectSnapshot } from "../../cache/content.ts";
import type { EditBatch } from "../../model/batch.ts";
import type { Diagnostic } from "../../model/diagnostic.ts";
import { tscBuildStops, unbuiltFiles } from "./_tsc-build.ts";

/** Tools that stop at the first unit that fails: a failed run may not have read every file. */
export const STOPS_EARLY: ReadonlySet<string> = new Set(["rustc", "clippy", "go", "golangci-lint"]);

/** Syntax (TS1xxx, TS17xxx, TS8xxx) and config (TS5xxx) errors: while one exists, tsc type-checks nothing. */
const TSC_BEFORE_TYPES = /^TS(1\d{3}|17\d{3}|8\d{3}|5\d{3})$/;

/** Which of the files given to a run that stopped early it may not have reached, given those it named. */
export interface CommandStop {
  unreached(files: readonly string[], named: ReadonlySet<string>): string[];
}

/** Any file it did not name. */
const ANY_UNNAMED: CommandStop = {
  unreached: (files, named) => files.filter((f) => !named.has(f)),
};

/**
 * A command whose failed run can leave files unread and say nothing of them: `tsc -b` with
 * `--stopBuildOnErrors`, or on TypeScript before 5.6, which leaves unbuilt the projects that
 * reference one with errors (`_tsc-build.ts`). `cwd`: where it runs; `root`: what the files
 * are relative to. Undefined for a command that reads every file it is given.
 */
export function commandStopsEarly(
  run: string | readonly string[] | ((...args: never[]) => unknown),
  cwd: string,
  root: string,
): CommandStop | undefined {
  if (typeof run === "function") return undefined;
  const build = tscBuildStops(typeof run === "string" ? run.trim().split(/\s+/) : run, cwd);
  if (build === null) return undefined;
  if (build === "unknown") return ANY_UNNAMED;
  return { unreached: (files, named) => unbuiltFiles(build, root, files, named) };
}

/**
 * A tool that stops early reported, mypy a syntax error (which stops it before type-checking
 * any module, even where its summary is off), or tsc printed only errors that keep it from
 * type-checking.
 */
export function stoppedEarly(diagnostics: readonly Diagnostic[]): boolean {
  let beforeTypes = false;
  let typed = false;
  for (const d of diagnostics) {
    if (STOPS_EARLY.has(d.tool)) return true;
    if (d.tool === "mypy" && d.code === "syntax") return true;
    if (d.tool !== "tsc") continue;
    if (TSC_BEFORE_TYPES.test(d.code)) beforeTypes = true;
    else typed = true;
  }
  return beforeTypes && !typed;
}

/**
 * The edited files a failed run may never have reached: it stopped early before them,
 * printed only some of its diagnostics, or said an error kept it from checking the rest
 * (mypy's blocking errors). Its failure says nothing about them: the agent is
 * told so, and it blocks.
 */
export function unreachedFiles(
  diagnostics: readonly Diagnostic[],
  edited: () => readonly string[],
  failed: boolean,
  how: {
    readonly hidden?: boolean;
    readonly stopped?: boolean;
    readonly commandStops?: CommandStop | undefined;
  } = {},
): string[] {
  // It printed only some diagnostics, or checked no file past the error it stopped at.
  const hidden = how.hidden === true || how.stopped === true;
  const stop = stoppedEarly(diagnostics) ? ANY_UNNAMED : how.commandStops;
  // a failure it printed nothing readable about is told as it is, not as old errors
  if (!failed || diagnostics.length === 0 || !(hidden || stop !== undefined)) return [];
  if (diagnostics.some((d) => d.baseline === "new")) return [];
  if (hidden || stop === undefined) return [...edited()];
  return stop.unreached(edited(), new Set(diagnostics.map((d) => d.file)));
}

/** For an agent, the files it just edited; for `cpilot check`, those that differ from HEAD (all of them outside git). */
export function changedAmong(
  batch: EditBatch,
  files: readonly string[],
  project?: ProjectSnapshot,
): () => string[] {
  if (batch.origin.surface !== "check")
    return () =>
      batch.files.filter((f) => f.kind !== "deleted" && files.includes(f.path)).map((f) => f.path);
  return () => {
    const changed = (project ?? new ProjectSnapshot(batch.root)).changed();
    return changed === null ? [...files] : files.filter((f) => changed.has(f));
  };
}
