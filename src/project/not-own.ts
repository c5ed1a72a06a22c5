import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { gitTimeoutMs } from "../match/git.ts";
import { runSync, utf8 } from "../platform/run-sync.ts";

/** A folder below the root that holds no code of the project's own, and how it was known. */
export interface NotOwnFolder {
  /** Relative to the root, posix. */
  readonly folder: string;
  readonly why: string;
}

/** Folders that are never a project's own code, by name, wherever they are. */
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

/** Files inside a folder that mark it as an environment or output, not code. */
const MARKERS: readonly (readonly [string, string])[] = [
  ["pyvenv.cfg", "a virtualenv (pyvenv.cfg)"],
  ["conda-meta", "a conda environment"],
  ["CACHEDIR.TAG", "a cache or build output (CACHEDIR.TAG)"],
  [".git", "another git repository"],
];

/**
 * Which folders below `root` are not the project's own code: installed packages,
 * virtualenvs (found by their `pyvenv.cfg`, whatever their name and whether git ignores
 * them), tool caches, Cargo's `target/` (beside a Cargo.toml, or tagged CACHEDIR.TAG),
 * another git repository nested inside. Each folder is judged once, its parents first.
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
  for (const [marker, why] of extra.markers) {
    const path = dir === "" ? marker : `${dir}/${marker}`;
    if (extra.among !== undefined) {
      if (extra.among.has(path)) return { folder: dir, why };
    } else if (has(marker) && (extra.confirm?.(path) ?? true)) return { folder: dir, why };
  }
  if (name === "target" && existsSync(join(root, parent, "Cargo.toml")))
    return { folder: dir, why: "Cargo's build output" };
  return null;
}

/**
 * Whether folder `abs` holds an entry of a given name. A stat per marker when only the
 * four fixed markers are asked of the disk: a listing reads every name in the folder, and
 * a large project's folders hold many more names than that. One listing when the extra
 * markers (seven config names) must be found on disk too: then it is the cheaper.
 */
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

/**
 * What earlier checks found of folders' fixed markers, so that a folder is looked into
 * again only when it changed (see src/cache/marker-memory.ts).
 */
export interface MarkerMemory {
  /**
   * True when `dir` (at `abs`) held none of the fixed markers when last looked into and has
   * not changed since. False otherwise: it is then looked into, right after this call.
   */
  unchanged(dir: string, abs: string): boolean;
  /** `dir`, just looked into after {@link unchanged} said false, holds none of them. */
  holdsNone(dir: string): void;
}

/**
 * More files that make a folder another's (a nested cpilot config), and a test each found
 * one must pass to count (that git tracks it: one the agent just made does not).
 */
export interface ExtraMarkers {
  readonly markers: readonly (readonly [string, string])[];
  readonly confirm?: (relPath: string) => boolean;
  /**
   * Every root-relative path that can count as one of `markers`, when the caller knows
   * them all (the tracked files, for markers that count only when tracked): a marker is
   * then looked up here instead of on disk, and `confirm` is not asked.
   */
  readonly among?: ReadonlySet<string>;
}

const NO_EXTRA: ExtraMarkers = { markers: [] };

/** What {@link ownFiles} kept, and the folders it left out with why. */
export interface OwnFiles<T> {
  readonly own: T[];
  /** Folder → why, for each folder a file was left out of. */
  readonly left: ReadonlyMap<string, string>;
}

/**
 * The items whose path lies in the project's own code: not in a {@link notOwnFolders}
 * folder, nor in a build output folder (`dist`, `build`, `out`) that git ignores (one
 * `git check-ignore` for all such folders, asked only when a path has one). `extraMarkers`:
 * more files that make a folder another's (a nested cpilot config).
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
  const own: T[] = [];
  // Lists come sorted (git's order), so a file's folder is most often the one before's:
  // it is then known by comparing, without cutting its name out and looking it up again.
  let folder: string | null = null;
  let verdict: NotOwnFolder | null = null;
  let output: string | null = null;
  for (const item of items) {
    const path = pathOf(item);
    const slash = path.lastIndexOf("/");
    if (folder === null || folder.length !== slash || !path.startsWith(folder)) {
      folder = slash === -1 ? "" : path.slice(0, slash);
      verdict = judge(folder);
      // the folders on the path decide, never the file's own name
      output = verdict === null ? outputFolder(path) : null;
    }
    if (verdict !== null) {
      left.set(verdict.folder, verdict.why);
      continue;
    }
    if (output === null) own.push(item);
    else {
      // appended in place: a copy per file made a tracked build/ of 20,000 files quadratic
      const held = outputs.get(output);
      if (held === undefined) outputs.set(output, [item]);
      else held.push(item);
    }
  }
  if (outputs.size === 0) return { own, left };
  const ignored = ignoredFolders(root, [...outputs.keys()]);
  for (const [folder, held] of outputs) {
    if (ignored.has(folder)) left.set(folder, "a build output git ignores");
    else own.push(...held);
  }
  return { own, left };
}

/** The outermost `dist`/`build`/`out` folder on the path, or null. */
const MAY_HOLD_OUTPUT = /(?:^|\/)(?:dist|build|out)\//;

function outputFolder(path: string): string | null {
  if (!MAY_HOLD_OUTPUT.test(path)) return null; // most paths: no split, no allocation
  const parts = path.split("/");
  for (let i = 0; i < parts.length - 1; i++)
    if (OUTPUT_NAMES.has(parts[i]!)) return parts.slice(0, i + 1).join("/");
  return null;
}

/** Which of `folders` git ignores; none outside git (nothing says they are outputs). */
function ignoredFolders(root: string, folders: readonly string[]): Set<string> {
  // check-ignore reads its paths as pathspecs and refuses literal ones: only plain names
  // are asked, so none can match another; a folder with another name stays the project's.
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
