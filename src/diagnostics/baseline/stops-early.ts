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
 * The edited files a failed run may never have reached: it stopped early (one of its
 * diagnostics is from such a tool), none of its diagnostics is new, and these files have
 * none. Its failure says nothing about them: the agent is told so, and it blocks.
 * `edited` is asked only then.
 */
export function unreachedFiles(
  diagnostics: readonly Diagnostic[],
  edited: () => readonly string[],
  failed: boolean,
): string[] {
  if (!failed || !diagnostics.some((d) => STOPS_EARLY.has(d.tool))) return [];
  if (diagnostics.some((d) => d.baseline === "new")) return [];
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
