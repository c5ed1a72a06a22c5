import { sha1Hex } from "../platform/digest.ts";
import {
  contentIdList,
  contentIds,
  MANY_FILES,
  ProjectSnapshot,
  readId,
  UNKNOWN,
} from "./content.ts";
import { packageFileIds } from "./package-files.ts";

/** `own`: HEAD's tree and every changed file `own` does not select. `inputs`: only what its globs select. */
export type Surroundings =
  | { readonly own: (path: string) => boolean }
  | { readonly inputs: readonly string[]; readonly matches: (path: string) => boolean };

export interface RunKey {
  readonly key: string;
  readonly read: Readonly<Record<string, string>>;
  readonly whole: string | null;
  /** For a whole-project key: the files whose ids were read from disk, which `whole` does not cover. */
  readonly readFromDisk: readonly string[];
  /** The look at the project the key was made from. */
  readonly project: ProjectSnapshot;
}

/**
 * The key of one run: its definition, its files, and the content it reads besides them (see
 * Surroundings), or the whole project's for a whole-project check. Null outside git.
 */
export function runKey(
  root: string,
  definition: string,
  files: readonly string[],
  wholeProject: boolean,
  reads: Surroundings = { own: () => false },
  project: ProjectSnapshot = new ProjectSnapshot(root),
): RunKey | null {
  const sorted = inOrder(files);
  const distinct = distinctCount(sorted);
  const modes: string[] = [];
  const fromDisk: string[] = [];
  const ids = contentIdList(root, sorted, project, distinct, modes, fromDisk);
  if (ids.includes(UNKNOWN)) return null;
  const parts = [definition, wholeProject ? "project" : "files"];
  const tree = wholeProject ? project.key() : null;
  if (wholeProject) {
    const converted = convertedFiles(project);
    if (tree === null || converted === null) return null;
    parts.push(tree, ...converted);
  } else {
    const around =
      "inputs" in reads ? declaredInputs(root, project, reads) : surroundings(project, reads.own);
    if (around === null) return null;
    parts.push(...around);
    parts.push(
      ...packageFileIds(
        root,
        files,
        project.committedConfigs() ?? (distinct > MANY_FILES ? project : null),
      ),
    );
  }
  for (let i = 0; i < sorted.length; i++) {
    // a plain file's part as it always was: only a mode that differs adds to it
    const tag = modes[i] ?? "";
    parts.push(tag === "" ? `${sorted[i]}\0${ids[i]}` : `${sorted[i]}\0${ids[i]}\0${tag}`);
  }
  // made when asked: a replayed pass never asks
  let read: Record<string, string> | undefined;
  return {
    key: sha1Hex(parts.join("\n")),
    get read() {
      if (read === undefined) {
        read = Object.create(null) as Record<string, string>;
        for (let i = 0; i < sorted.length; i++) read[sorted[i] as string] = ids[i] as string;
      }
      return read;
    },
    whole: tree,
    readFromDisk: fromDisk,
    project,
  };
}

/** `files` sorted; the same array when it already is (a listing from git mostly is). */
function inOrder(files: readonly string[]): readonly string[] {
  for (let i = 1; i < files.length; i++)
    if ((files[i - 1] as string) > (files[i] as string)) return [...files].sort();
  return files;
}

/** How many different paths sorted `files` holds. */
function distinctCount(sorted: readonly string[]): number {
  let n = sorted.length > 0 ? 1 : 0;
  for (let i = 1; i < sorted.length; i++) if (sorted[i] !== sorted[i - 1]) n++;
  return n;
}

/**
 * Files whose content differs now from what the key read (a fixer's rewrites); `now`: the
 * project as it is now. A whole-project key equal to `now`'s says that every file git lists
 * is as it was: only the ones read from disk are read again.
 */
export function changedSince(root: string, key: RunKey, now: ProjectSnapshot): string[] {
  const unchanged = key.whole !== null && key.whole === now.key();
  const ids = contentIds(root, unchanged ? key.readFromDisk : Object.keys(key.read), now);
  return [...ids].filter(([file, id]) => key.read[file] !== id).map(([file]) => file);
}

function surroundings(
  project: ProjectSnapshot,
  ownFile: (path: string) => boolean,
): string[] | null {
  const tree = project.tree();
  const changed = project.changed();
  const converted = convertedFiles(project);
  if (tree === null || changed === null || converted === null) return null;
  const out = [`tree\0${tree}`, ...converted];
  for (const [path, id] of [...changed].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (ownFile(path)) continue;
    // a submodule git cannot say the content of: no key
    if (id === UNKNOWN) return null;
    out.push(`other\0${project.dirtyEntry(path, id)}`);
  }
  return out;
}

const selected = new WeakMap<ProjectSnapshot, Map<string, string[]>>();

function declaredInputs(
  root: string,
  project: ProjectSnapshot,
  reads: { readonly inputs: readonly string[]; readonly matches: (path: string) => boolean },
): string[] | null {
  const globs = JSON.stringify(reads.inputs);
  const known = selected.get(project)?.get(globs);
  if (known !== undefined) return known;
  const out = [`inputs\0${globs}`];
  if (reads.inputs.length > 0) {
    const every = project.content(Number.POSITIVE_INFINITY);
    if (every === null) return null;
    const files = [...every.keys()].filter(reads.matches).sort();
    // a pinned snapshot's are the index's; where git may call a file unchanged whose bytes
    // differ, they are read
    const pinned = project.committedConfigs() !== undefined;
    const fromDisk = !pinned && project.converts();
    for (const path of files) {
      const id = fromDisk ? (project.changed()?.get(path) ?? readId(root, path)) : every.get(path);
      if (id === UNKNOWN) return null;
      const tag = project.modeOf(path);
      out.push(`input\0${path}\0${id}${tag === "" ? "" : `\0${tag}`}`);
    }
  }
  const byGlobs = selected.get(project) ?? new Map<string, string[]>();
  byGlobs.set(globs, out);
  selected.set(project, byGlobs);
  return out;
}

/**
 * What the tree in a key stands for, read from disk where git converts bytes as it compares
 * them (see ProjectSnapshot.convertedContent); nothing for a pinned snapshot, whose content is
 * the index's, or where git does not convert.
 */
function convertedFiles(project: ProjectSnapshot): string[] | null {
  if (project.committedConfigs() !== undefined) return [];
  const id = project.convertedContent();
  return id === null ? null : id === "" ? [] : [`disk\0${id}`];
}
