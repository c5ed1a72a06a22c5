import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileContentId, NO_CONTENT } from "./content.ts";
import { TOOL_CONFIGS } from "./tool-configs.ts";

const NAMES: ReadonlySet<string> = new Set(TOOL_CONFIGS);

/** A path below the root that names one of them: one test per path, no slice. */
const NESTED_CONFIG = new RegExp(
  `/(?:${TOOL_CONFIGS.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`,
);

/**
 * The folders between the root (excluded: its configs are in the definition key) and each
 * root-relative file, each once: where a nested package's manifest, tool configs and
 * lockfile live. Paths outside the root give none.
 */
function foldersAbove(files: readonly string[]): Set<string> {
  const folders = new Set<string>();
  for (const file of files) {
    if (file === "" || file.startsWith("/") || file.startsWith("../")) continue;
    let slash = file.lastIndexOf("/");
    while (slash > 0) {
      const folder = file.slice(0, slash);
      if (folders.has(folder)) break; // its parents are in already
      folders.add(folder);
      slash = folder.lastIndexOf("/");
    }
  }
  return folders;
}

/** Nested tool configs by listing: found once per listing, not probed per folder. */
const listed = new WeakMap<ReadonlyMap<string, string>, readonly [string, string, string][]>();

/** The listing's tool configs below the root, as [folder, path, id]. */
function configsIn(known: ReadonlyMap<string, string>): readonly [string, string, string][] {
  let found = listed.get(known);
  if (found === undefined) {
    const list: [string, string, string][] = [];
    for (const [path, id] of known) {
      if (id === NO_CONTENT || !NESTED_CONFIG.test(path)) continue;
      const slash = path.lastIndexOf("/");
      if (slash > 0) list.push([path.slice(0, slash), path, id]);
    }
    found = list;
    listed.set(known, found);
  }
  return found;
}

/**
 * The tool configs and lockfiles of the nested packages `files` belong to (see
 * TOOL_CONFIGS), as "path\0id" entries in a stable order: a package's own lockfile or
 * tsconfig changes its checks' results as the root's do. `known`: every file's content id
 * from git's listing, when the caller has it (no folder is read then); else each folder is
 * listed once.
 */
export function packageFileIds(
  root: string,
  files: readonly string[],
  known: ReadonlyMap<string, string> | null,
): string[] {
  const out: string[] = [];
  if (known !== null) {
    const configs = configsIn(known);
    if (configs.length === 0) return out; // no nested package: no folder to list
    const folders = foldersAbove(files);
    for (const [folder, path, id] of configs) if (folders.has(folder)) out.push(`${path}\0${id}`);
    return out.sort();
  }
  for (const folder of foldersAbove(files)) {
    let names: string[];
    try {
      names = readdirSync(join(root, folder));
    } catch {
      continue; // gone or not a folder: nothing of a package there
    }
    for (const name of names) {
      if (!NAMES.has(name)) continue;
      const id = fileContentId(root, `${folder}/${name}`);
      if (id !== NO_CONTENT) out.push(`${folder}/${name}\0${id}`);
    }
  }
  return out.sort();
}
