import { CONFIG_NAMES } from "../config/find.ts";
import type { FileChange } from "../model/batch.ts";
import { type ExtraMarkers, ownFiles } from "../project/not-own.ts";
import { isTracked } from "../project/tracked.ts";

/**
 * A folder below the root holding its own config that git tracks: that config judges its
 * files, not the root's (the nearest config decides), so the root's callbacks leave them
 * out. An untracked one (an agent could write it through its shell) changes nothing.
 */
export function nestedConfigMarkers(root: string): ExtraMarkers {
  return {
    markers: CONFIG_NAMES.map((name) => [name, `its own ${name} judges its files`] as const),
    confirm: (path) => isTracked(root, path),
  };
}

/**
 * The folders below `root` with their own config that hold some of `files`, outermost only.
 * `leftOut`: what the engine's check of these files left out (its Outcome's), so that the
 * folders each config checks are exactly those the root's check did not, and are not
 * looked at twice.
 */
export function nestedConfigFolders(
  root: string,
  files: readonly FileChange[],
  leftOut?: ReadonlyMap<string, string>,
): string[] {
  const left = leftOut ?? ownFiles(root, files, (f) => f.path, nestedConfigMarkers(root)).left;
  return [...left].filter(([, why]) => why.startsWith("its own ")).map(([folder]) => folder);
}
