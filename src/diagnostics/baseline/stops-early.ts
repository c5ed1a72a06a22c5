import { ProjectSnapshot } from "../../cache/content.ts";
import type { EditBatch } from "../../model/batch.ts";
import type { Diagnostic } from "../../model/diagnostic.ts";

/**
 * Tools that stop at the first unit that fails (rustc runs clippy's lints once a crate
 * compiles, cargo builds no crate past a failed one, go vet analyzes a package once it
 * type-checks): a failed run of theirs may not have read every file it was given.
 */
export const STOPS_EARLY: ReadonlySet<string> = new Set(["rustc", "clippy", "go", "golangci-lint"]);

/**
 * TypeScript's syntax errors (TS1xxx, TS17xxx in JSX, TS8xxx in JavaScript files) and its
 * configuration errors (TS5xxx): while the project has one, tsc type-checks no file at all.
 */
const TSC_BEFORE_TYPES = /^TS(1\d{3}|17\d{3}|8\d{3}|5\d{3})$/;

/**
 * Does the command stop at its first failing unit whatever it prints? `tsc -b
 * --stopBuildOnErrors` builds no project past one with errors, and says so only with
 * `--verbose`.
 */
export function commandStopsEarly(
  run: string | readonly string[] | ((...args: never[]) => unknown),
): boolean {
  if (typeof run === "function") return false;
  const words = typeof run === "string" ? run.split(/\s+/) : run;
  return words.some((w) => w === "--stopBuildOnErrors" || w.startsWith("--stopBuildOnErrors="));
}

/**
 * Did a run's output stop before reading every file? It has a diagnostic of a tool that stops
 * early, or tsc printed only errors of the kinds that keep it from type-checking (a type
 * error among them shows it went on).
 */
export function stoppedEarly(diagnostics: readonly Diagnostic[]): boolean {
  let beforeTypes = false;
  let typed = false;
  for (const d of diagnostics) {
    if (STOPS_EARLY.has(d.tool)) return true;
    if (d.tool !== "tsc") continue;
    if (TSC_BEFORE_TYPES.test(d.code)) beforeTypes = true;
    else typed = true;
  }
  return beforeTypes && !typed;
}

/**
 * The edited files a failed run may never have reached: none of its diagnostics is new, and
 * it stopped early (see {@link stoppedEarly}; `commandStops`: {@link commandStopsEarly})
 * before these files, which have none; or it
 * printed only some of its diagnostics (`hidden`), which may leave out any file's. Its
 * failure says nothing about them: the agent is told so, and it blocks. `edited` is asked
 * only then.
 */
export function unreachedFiles(
  diagnostics: readonly Diagnostic[],
  edited: () => readonly string[],
  failed: boolean,
  how: { readonly hidden?: boolean; readonly commandStops?: boolean } = {},
): string[] {
  const hidden = how.hidden === true;
  if (!failed || !(hidden || how.commandStops === true || stoppedEarly(diagnostics))) return [];
  if (diagnostics.some((d) => d.baseline === "new")) return [];
  if (hidden) return [...edited()];
  const named = new Set(diagnostics.map((d) => d.file));
  return edited().filter((f) => !named.has(f));
}

/**
 * The files of a run that are someone's change: for an agent, those of `files` it just
 * edited; for `cpilot check`, those that differ from HEAD (every one of them outside git,
 * where there is nothing to compare with).
 */
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
