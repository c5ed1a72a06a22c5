import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { gitTimeoutMs } from "../match/git.ts";
import { runSync, utf8 } from "../platform/run-sync.ts";

/** A folder below the root that holds no code of the project's own, and how it was known. */
export interface NotOwnFolder {
  readonly folder: string;
  readonly why: string;
}

/** Folders that are never a project's own code, wherever they are. */
const BY_NAME: ReadonlyMap<string, string> = new Map([
  ["node_modules", "installed packages"],
  ["bower_components", "installed packages"],
  ["__pycache__", "Python's bytecode cache"],
  [".tox", "tox's virtualenvs"],
  [".nox", "nox's virtualenvs"],
  [".mypy_cache", "mypy's cache"],
  [".pytest_cache", "pytest's cache"],
  [".ruff_cache", "ruff's cache"],
  [".git", "git's own files"],
]);

/** Build outputs that are the project's only when it tracks them: judged by .gitignore. */
const OUTPUT_NAMES = new Set(["dist", "build", "out"]);

const MARKERS: readonly (readonly [string, string])[] = [
  ["pyvenv.cfg", "a virtualenv (pyvenv.cfg)"],
  ["conda-meta", "a conda environment"],
  ["CACHEDIR.TAG", "a cache or build output (CACHEDIR.TAG)"],
  [".git", "another git repository"],
];

/**
 * Which folders below `root` are not the project's own code: installed packages,
 * virtualenvs (by their `pyvenv.cfg`, whatever git says), tool caches, Cargo's `target/`,
 * nested git repositories. Each folder is judged once, its parents first.
 */
export function notOwnFolders(
  root: string,
  extra: ExtraMarkers = NO_EXTRA,
  memory?: MarkerMemory,
): (dir: string) => NotOwnFolder | null {
  const verdicts = new Map<string, NotOwnFolder | null>([["", null]]);
  const judge = (dir: string): NotOwnFolder | null => {
    const known = verdicts.get(dir);
    if (known !== undefined) return known;
    const slash = dir.lastIndexOf("/");
    const parent = slash === -1 ? "" : dir.slice(0, slash);
    const name = dir.slice(slash + 1);
    const verdict = judge(parent) ?? ownVerdict(root, dir, parent, name, extra, memory);
    verdicts.set(dir, verdict);
    return verdict;
  };
  return judge;
}

function ownVerdict(
  root: string,
  dir: string,
  parent: string,
  name: string,
  extra: ExtraMarkers,
  memory: MarkerMemory | undefined,
): NotOwnFolder | null {
  const byName = BY_NAME.get(name);
  if (byName !== undefined) return { folder: dir, why: byName };
  const abs = dir === "" ? root : `${root}/${dir}`;
  const has = markerTest(abs, extra);
  if (!(memory?.unchanged(dir, abs) ?? false)) {
    for (const [marker, why] of MARKERS) if (has(marker)) return { folder: dir, why };
    memory?.holdsNone(dir);
  }
  if (extra.among !== undefined) {
    const why = extra.among.size === 0 ? undefined : markedFolders(extra).get(dir);
    if (why !== undefined) return { folder: dir, why };
  } else
    for (const [marker, why] of extra.markers) {
      const path = dir === "" ? marker : `${dir}/${marker}`;
      if (has(marker) && (extra.confirm?.(path) ?? true)) return { folder: dir, why };
    }
  if (name === "target" && existsSync(join(root, parent, "Cargo.toml")))
    return { folder: dir, why: "Cargo's build output" };
  return null;
}

/**
 * Does what is on disk now mark `dir` (root-relative, below the root) as not the project's
 * own: a fixed marker in it, or a `target` beside a Cargo.toml? For a caller that remembers
 * folders by stat and must look again at one whose stat cannot vouch.
 */
export function markedOnDisk(root: string, dir: string): boolean {
  const slash = dir.lastIndexOf("/");
  const name = dir.slice(slash + 1);
  if (BY_NAME.has(name)) return true;
  const has = markerTest(`${root}/${dir}`, NO_EXTRA);
  if (MARKERS.some(([marker]) => has(marker))) return true;
  return (
    name === "target" &&
    existsSync(join(root, slash === -1 ? "" : dir.slice(0, slash), "Cargo.toml"))
  );
}

/** Does `path` lie in a `dist`, `build` or `out` folder, whose verdict follows what git ignores? */
export function inOutputFolder(path: string): boolean {
  return outputFolder(path) !== null;
}

const folderWhys = new WeakMap<ExtraMarkers, ReadonlyMap<string, string>>();

/** The folders `extra.among` puts a marker in, each with the first marker's why: one lookup per folder. */
function markedFolders(extra: ExtraMarkers): ReadonlyMap<string, string> {
  let found = folderWhys.get(extra);
  if (found === undefined) {
    const byFolder = new Map<string, string>();
    for (const [marker, why] of extra.markers)
      for (const path of extra.among ?? []) {
        const slash = path.lastIndexOf("/");
        const folder = slash === -1 ? "" : path.slice(0, slash);
        if (path.slice(slash + 1) === marker && !byFolder.has(folder)) byFolder.set(folder, why);
      }
    found = byFolder;
    folderWhys.set(extra, found);
  }
  return found;
}

// A stat per fixed marker beats listing a large folder; one listing is cheaper only when
// the extra markers must be found on disk too.
function markerTest(abs: string, extra: ExtraMarkers): (name: string) => boolean {
  if (extra.markers.length > 0 && extra.among === undefined) {
    const names = listing(abs);
    return (name) => names.has(name);
  }
  // follows a symlink: one to nothing marks nothing, as no environment or repository is there
  return (name) => existsSync(`${abs}/${name}`);
}

function listing(abs: string): ReadonlySet<string> {
  try {
    return new Set(readdirSync(abs));
  } catch {
    return new Set(); // gone, or not a folder: nothing marks it
  }
}

/** What earlier checks found of folders' fixed markers, so an unchanged folder is not looked into again. */
export interface MarkerMemory {
  /** True when `dir` held none of the fixed markers when last looked into and has not changed since. */
  unchanged(dir: string, abs: string): boolean;
  holdsNone(dir: string): void;
}

/** More files that make a folder another's (a nested cpilot config), and a test each must pass (tracked by git). */
export interface ExtraMarkers {
  readonly markers: readonly (readonly [string, string])[];
  readonly confirm?: (relPath: string) => boolean;
  /** Every path that can count as one of `markers`, when the caller knows them all: looked up here, not on disk. */
  readonly among?: ReadonlySet<string>;
}

const NO_EXTRA: ExtraMarkers = { markers: [] };

export interface OwnFiles<T> {
  readonly own: T[];
  readonly left: ReadonlyMap<string, string>;
}

/**
 * The items whose path lies in the project's own code: not in a {@link notOwnFolders} folder,
 * nor in a `dist`/`build`/`out` folder that git ignores.
 */
export function ownFiles<T>(
  root: string,
  items: readonly T[],
  pathOf: (item: T) => string,
  extra: ExtraMarkers = NO_EXTRA,
  memory?: MarkerMemory,
): OwnFiles<T> {
  const judge = notOwnFolders(root, extra, memory);
  const left = new Map<string, string>();
  const outputs = new Map<string, T[]>();
  // made at the first item left out: most often none is, and a copy of `items` is the answer
  let own: T[] | null = null;
  // Lists come sorted, so a file's folder is most often the previous one's.
  let folder: string | null = null;
  let verdict: NotOwnFolder | null = null;
  let output: string | null = null;
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as T;
    const path = pathOf(item);
    const slash = path.lastIndexOf("/");
    if (folder === null || folder.length !== slash || !path.startsWith(folder)) {
      folder = slash === -1 ? "" : path.slice(0, slash);
      verdict = judge(folder);
      // the folders on the path decide, never the file's own name
      output = verdict === null ? outputFolder(path) : null;
    }
    if (verdict === null && output === null) {
      own?.push(item);
      continue;
    }
    own ??= items.slice(0, i);
    if (verdict !== null) left.set(verdict.folder, verdict.why);
    else if (output !== null) {
      // appended in place: a copy per file is quadratic on a large tracked build/
      const held = outputs.get(output);
      if (held === undefined) outputs.set(output, [item]);
      else held.push(item);
    }
  }
  if (own === null) return { own: items.slice(), left };
  if (outputs.size === 0) return { own, left };
  const ignored = ignoredFolders(root, [...outputs.keys()]);
  for (const [folder, held] of outputs) {
    if (ignored.has(folder)) left.set(folder, "a build output git ignores");
    else own.push(...held);
  }
  return { own, left };
}

const MAY_HOLD_OUTPUT = /(?:^|\/)(?:dist|build|out)\//;

function outputFolder(path: string): string | null {
  if (!MAY_HOLD_OUTPUT.test(path)) return null; // most paths: no split, no allocation
  const parts = path.split("/");
  for (let i = 0; i < parts.length - 1; i++)
    if (OUTPUT_NAMES.has(parts[i]!)) return parts.slice(0, i + 1).join("/");
  return null;
}

/** Which of `folders` git ignores; none outside git. */
function ignoredFolders(root: string, folders: readonly string[]): Set<string> {
  // check-ignore reads pathspecs: only plain names are asked, so none can match another.
  const plain = folders.filter((f) => /^[\w./@+ -]+$/.test(f));
  if (plain.length === 0) return new Set();
  const { GIT_LITERAL_PATHSPECS: _, ...env } = process.env;
  const r = runSync("git", ["check-ignore", "--", ...plain.map((f) => `${f}/`)], {
    cwd: root,
    env: { ...env, GIT_OPTIONAL_LOCKS: "0", LC_ALL: "C" },
    timeoutMs: gitTimeoutMs(),
  });
  // exit 1: none ignored; 128: not a repository
  if (r.status !== 0) return new Set();
  return new Set(
    utf8(r.stdout)
      .split("\n")
      .map((f) => (f.endsWith("/") ? f.slice(0, -1) : f)),
  );
}
