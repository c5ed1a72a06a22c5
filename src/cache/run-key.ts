import { sha1Hex } from "../platform/digest.ts";
import { contentIds, MANY_FILES, NO_CONTENT, ProjectSnapshot } from "./content.ts";
import { packageFileIds } from "./package-files.ts";

/** `own`: HEAD's tree and every changed file `own` does not select. `inputs`: only what its globs select. */
export type Surroundings =
  | { readonly own: (path: string) => boolean }
  | { readonly inputs: readonly string[]; readonly matches: (path: string) => boolean };

export interface RunKey {
  readonly key: string;
  readonly read: Readonly<Record<string, string>>;
  readonly whole: string | null;
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
  const ids = contentIds(root, files, project);
  const parts = [definition, wholeProject ? "project" : "files"];
  const tree = wholeProject ? project.key() : null;
  if (wholeProject) {
    if (tree === null) return null;
    parts.push(tree);
  } else {
    const around =
      "inputs" in reads ? declaredInputs(project, reads) : surroundings(project, reads.own);
    if (around === null) return null;
    parts.push(...around);
    const known = ids.size > MANY_FILES ? project.content(Number.POSITIVE_INFINITY) : null;
    parts.push(...packageFileIds(root, files, known));
  }
  for (const file of [...files].sort()) parts.push(`${file}\0${ids.get(file) ?? NO_CONTENT}`);
  // made when asked: a replayed pass never asks
  let read: Record<string, string> | undefined;
  return {
    key: sha1Hex(parts.join("\n")),
    get read() {
      if (read === undefined) {
        read = Object.create(null) as Record<string, string>;
        for (const [file, id] of ids) read[file] = id;
      }
      return read;
    },
    whole: tree,
  };
}

/** Files whose content differs now from what the key read (a fixer's rewrites). */
export function changedSince(root: string, key: RunKey): string[] {
  const now = contentIds(root, Object.keys(key.read));
  return [...now].filter(([file, id]) => key.read[file] !== id).map(([file]) => file);
}

function surroundings(
  project: ProjectSnapshot,
  ownFile: (path: string) => boolean,
): string[] | null {
  const tree = project.tree();
  const changed = project.changed();
  if (tree === null || changed === null) return null;
  const out = [`tree\0${tree}`];
  for (const [path, id] of [...changed].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    if (!ownFile(path)) out.push(`other\0${path}\0${id}`);
  return out;
}

const selected = new WeakMap<ProjectSnapshot, Map<string, string[]>>();

function declaredInputs(
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
    for (const path of files) out.push(`input\0${path}\0${every.get(path)}`);
  }
  const byGlobs = selected.get(project) ?? new Map<string, string[]>();
  byGlobs.set(globs, out);
  selected.set(project, byGlobs);
  return out;
}
