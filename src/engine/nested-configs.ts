import { CONFIG_NAMES } from "../config/find.ts";
import type { FileChange } from "../model/batch.ts";
import { type ExtraMarkers, ownFiles } from "../project/not-own.ts";
import { isTracked } from "../project/tracked.ts";

/**
 * A folder below the root holding its own config that git tracks: that config judges its
 * files, not the root's (the nearest config decides), so the root's callbacks leave them
 * out. An untracked one (an agent could write it through its shell) changes nothing.
 * `tracked`: every file git tracks that is on disk, when the caller has that list (`check
 * --all`): the configs are found in it, with no folder listed and no git asked.
 */
export function nestedConfigMarkers(root: string, tracked?: readonly string[]): ExtraMarkers {
  const markers = CONFIG_NAMES.map((name) => [name, `its own ${name} judges its files`] as const);
  if (tracked !== undefined) return { markers, among: configPaths(tracked) };
  return { markers, confirm: (path) => isTracked(root, path) };
}

const NAMES: ReadonlySet<string> = new Set(CONFIG_NAMES);

function configPaths(paths: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const path of paths) {
    if (!path.includes("callbacks.config.")) continue;
    if (NAMES.has(path.slice(path.lastIndexOf("/") + 1))) found.add(path);
  }
  return found;
}

/**
 * The folders below `root` with their own config that hold some of `files`, outermost only;
 * `leftOut` (what the root's check left out) keeps any folder from being checked twice.
 */
export function nestedConfigFolders(
  root: string,
  files: readonly FileChange[],
  leftOut?: ReadonlyMap<string, string>,
): string[] {
  const left = leftOut ?? ownFiles(root, files, (f) => f.path, nestedConfigMarkers(root)).left;
  return [...left].filter(([, why]) => why.startsWith("its own ")).map(([folder]) => folder);
}
