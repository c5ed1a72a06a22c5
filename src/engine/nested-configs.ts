import { existsSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_NAMES } from "../config/find.ts";
import { runGit } from "../match/git.ts";
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

/**
 * Every folder below `root` whose own config judges the files in it, as
 * {@link nestedConfigFolders} finds them for an edit there (tracked and on disk, in the
 * project's own code), and the same again below each: a package inside a package judges
 * its own. Sorted; none outside a git repository.
 */
export function packageConfigFolders(root: string): string[] {
  const patterns = CONFIG_NAMES.map((name) => `:(glob)**/${name}`);
  // the pathspecs are patterns here, which cpilot's git reads literally unless told
  const listed = runGit(root, ["ls-files", "-z", "--", ...patterns], {
    GIT_LITERAL_PATHSPECS: "0",
  });
  if (!listed.ok) return [];
  const tracked = listed.stdout
    .split("\0")
    .filter((path) => path !== "" && existsSync(join(root, path)));
  return foldersAmong(root, tracked).sort();
}

/** `tracked`: the config files git tracks below `root`, relative to it. */
function foldersAmong(root: string, tracked: readonly string[]): string[] {
  const files = tracked.map((path) => ({ path, kind: "modified" as const }));
  const { left } = ownFiles(root, files, (f) => f.path, nestedConfigMarkers(root, tracked));
  const below = new Map(nestedConfigFolders(root, files, left).map((f) => [f, [] as string[]]));
  for (const path of tracked) {
    // the outermost found folder holding it, if any
    for (let i = path.indexOf("/"); i !== -1; i = path.indexOf("/", i + 1)) {
      const list = below.get(path.slice(0, i));
      if (list === undefined) continue;
      list.push(path.slice(i + 1));
      break;
    }
  }
  const out: string[] = [];
  for (const [folder, inside] of below) {
    out.push(folder);
    // only a config in a folder below its own can be another package's
    if (!inside.some((path) => path.includes("/"))) continue;
    for (const inner of foldersAmong(join(root, folder), inside)) out.push(`${folder}/${inner}`);
  }
  return out;
}
