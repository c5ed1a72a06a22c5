import { sha1Hex } from "../platform/digest.ts";
import { contentIds, MANY_FILES, NO_CONTENT, ProjectSnapshot } from "./content.ts";
import { packageFileIds } from "./package-files.ts";

/**
 * What a run that takes its files reads besides them. `own`: anything (HEAD's tree and every
 * changed file `own` does not select). `inputs`: only the project files its globs select, as
 * the config declares (`inputs: []` reads nothing else), so a commit elsewhere keeps the key.
 */
export type Surroundings =
  | { readonly own: (path: string) => boolean }
  | { readonly inputs: readonly string[]; readonly matches: (path: string) => boolean };

/** What a run's result is keyed by, and the content it read as the key saw it. */
export interface RunKey {
  readonly key: string;
  /** The files given, with their content ids when the key was made. */
  readonly read: Readonly<Record<string, string>>;
  /** For a whole-project check, the project's content key (../cache/content.ts), else null. */
  readonly whole: string | null;
}

/**
 * The key of one run: the check's definition key, the files it is given, and the content it
 * reads: those files' (a command that takes its files), or the whole project's (one that
 * checks the project whatever it is given: `tsc -p .` reads files it is not handed, so its
 * key is HEAD's tree and every file that differs from it). Null when the content cannot be
 * known (outside git): such a run is not cached.
 *
 * A command that takes its files may read others too (a word list, a rules file, a config
 * below the root): its key also holds HEAD's tree and every file that differs from it which
 * the check's patterns do not select (`ownFile`). A rules file loosened for one run and put
 * back then no longer lets that run's pass replay for the file, while the files the check
 * selects, edited one after another, keep their own records. A check that declares its
 * `inputs` is keyed by those files' content instead, which a commit elsewhere leaves alone.
 *
 * Nested packages' configs and lockfiles between the root and the files are in the key too.
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
    // as contentIds decided: from the listing for many files (ids holds each file once)
    const known = ids.size > MANY_FILES ? project.content(Number.POSITIVE_INFINITY) : null;
    parts.push(...packageFileIds(root, files, known));
  }
  for (const file of [...files].sort()) parts.push(`${file}\0${ids.get(file) ?? NO_CONTENT}`);
  // made when asked (a record written, a diagnostic placed): a replayed pass never asks
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

/** HEAD's tree and the changed files that are not `ownFile`, with their ids; null outside git. */
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

/** Per snapshot and globs, the key parts of the files they select: a batch's runs share them. */
const selected = new WeakMap<ProjectSnapshot, Map<string, string[]>>();

/** The declared globs and every project file they select, with its id; null outside git. */
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
