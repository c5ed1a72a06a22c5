import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileContentId, NO_CONTENT } from "./content.ts";
import { noteFileRead, noteFolderListed } from "./outside-reads.ts";
import { TOOL_CONFIG_NAMES, TOOL_CONFIGS } from "./tool-configs.ts";

const NESTED_CONFIG = new RegExp(
  `/(?:${TOOL_CONFIGS.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})$`,
);

/** The folders between the root (its configs are in the definition key) and each file, once each. */
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

/** Every file's content id, visited one by one (see ProjectSnapshot); false when they cannot be known. */
export interface KnownIds {
  forEachId(visit: (path: string, id: string) => void): boolean;
}

const listed = new WeakMap<object, readonly [string, string, string][] | null>();

function configsIn(
  known: ReadonlyMap<string, string> | KnownIds,
): readonly [string, string, string][] | null {
  let found = listed.get(known);
  if (found === undefined) {
    const list: [string, string, string][] = [];
    const visit = (path: string, id: string): void => {
      if (id === NO_CONTENT || !NESTED_CONFIG.test(path)) return;
      const slash = path.lastIndexOf("/");
      if (slash > 0) list.push([path.slice(0, slash), path, id]);
    };
    if ("forEachId" in known) found = known.forEachId(visit) ? list : null;
    else {
      for (const [path, id] of known) visit(path, id);
      found = list;
    }
    listed.set(known, found);
  }
  return found;
}

/**
 * The tool configs and lockfiles of the nested packages `files` belong to, as "path\0id"
 * entries in a stable order: a package's own lockfile changes its checks' results.
 */
export function packageFileIds(
  root: string,
  files: readonly string[],
  known: ReadonlyMap<string, string> | KnownIds | null,
): string[] {
  const out: string[] = [];
  const configs = known === null ? null : configsIn(known);
  if (configs !== null) {
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
      noteFolderListed(folder, []);
      continue; // gone or not a folder: nothing of a package there
    }
    const kept = names.filter((name) => TOOL_CONFIG_NAMES.has(name)).sort();
    noteFolderListed(folder, kept);
    for (const name of kept) {
      const id = fileContentId(root, `${folder}/${name}`);
      noteFileRead(`${folder}/${name}`, id);
      if (id !== NO_CONTENT) out.push(`${folder}/${name}\0${id}`);
    }
  }
  return out.sort();
}
