import { ProjectSnapshot } from "../../cache/content.ts";
import type { EditBatch } from "../../model/batch.ts";
import type { Diagnostic } from "../../model/diagnostic.ts";

/** Tools that stop at the first unit that fails: a failed run may not have read every file. */
export const STOPS_EARLY: ReadonlySet<string> = new Set(["rustc", "clippy", "go", "golangci-lint"]);

/** Syntax (TS1xxx, TS17xxx, TS8xxx) and config (TS5xxx) errors: while one exists, tsc type-checks nothing. */
const TSC_BEFORE_TYPES = /^TS(1\d{3}|17\d{3}|8\d{3}|5\d{3})$/;

/** `tsc -b --stopBuildOnErrors` builds nothing past a failing project, and says so only with `--verbose`. */
export function commandStopsEarly(
  run: string | readonly string[] | ((...args: never[]) => unknown),
): boolean {
  if (typeof run === "function") return false;
  const words = typeof run === "string" ? run.split(/\s+/) : run;
  return words.some((w) => w === "--stopBuildOnErrors" || w.startsWith("--stopBuildOnErrors="));
}

/** A tool that stops early reported, or tsc printed only errors that keep it from type-checking. */
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
 * The edited files a failed run may never have reached: it stopped early before them, or
 * printed only some of its diagnostics. Its failure says nothing about them: the agent is
 * told so, and it blocks.
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
