import { lstatSync, readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { type GitEnv, runGit, splitNul } from "../match/git.ts";
import { sha1Hex } from "../platform/digest.ts";
import { distrustEnv } from "./git-distrust.ts";
import { committedBytes, committedChanges, headCommit, lookAtIndex } from "./git-hidden-edits.ts";
import { findPlace, type GitPlace, innerPlace, placeEnv } from "./git-place.ts";
import {
  excludesFileNow,
  hiddenByNewRules,
  type Pinned,
  pinned,
  ruleText,
  type TurnRules,
} from "./ignore-rules.ts";

/**
 * The project's files as they stand, cheaply: what `git status` lists as differing from
 * the index (git answers from its index stat data without reading clean files), each with
 * its stat data, plus the files the gate protects that git may not list (ignored `.env`,
 * the git hooks and the repository's exclude list, cpilot's and the agents' config), each
 * with a hash of its bytes. Two
 * snapshots compared say which files were created, changed or deleted in between, however
 * they were written. Keys are paths relative to the project root.
 */
export interface TreeSnapshot {
  /** path → signature: `s:<stat>`, `h:<hash>`, or ABSENT. */
  readonly files: Readonly<Record<string, string>>;
  /** The commit HEAD named: a file committed in between is clean in both lists, yet changed. */
  readonly head?: string | null;
  /** The ignore rules as the turn started, which every later look keeps. */
  readonly turn?: TurnRules;
  /** Where the repository was as the session started: every later look keeps it. */
  readonly place?: GitPlace;
  /** When it was taken (ms since the epoch). */
  readonly at?: number;
}

export const ABSENT = "-";

/** Says what a changed path is when the gate protects it, else null. */
export type ProtectedKind = (rel: string) => string | null;

/** What the root folder holds that the gate protects, besides what git lists. */
export type WatchedNames = (name: string) => boolean;

const STATUS = [
  "--no-optional-locks",
  "status",
  "--porcelain=v2",
  "-z",
  "--no-renames",
  "--ignore-submodules=all",
  "--untracked-files=all",
  // Ignored files are listed too, ignored folders as one entry: a `.gitignore` among them
  // hides itself, and what it ignores is looked at (see ignore-rules.ts).
  "--ignored=matching",
  "--",
  ".",
];

/** What a look at the project keeps from the earlier ones. */
export interface Earlier {
  /** The ignore rules the session's record holds (none: they are taken now). */
  readonly turn?: TurnRules;
  /** Where the repository was (none: it is found now). */
  readonly place?: GitPlace;
  /** A turn starts now, which keeps `turn` but counts files changed from now. */
  readonly newTurn?: boolean;
  /** When the last look was taken: a file git recorded since may hide a rewrite. */
  readonly since?: number;
}

/**
 * The snapshot of `root`, or null when it is not in a git work tree (or git fails): then
 * nothing can be compared cheaply and changes through the shell are not seen.
 */
export function takeSnapshot(
  root: string,
  isProtected: ProtectedKind,
  watched: WatchedNames,
  extra: readonly string[] = [],
  earlier: Earlier = {},
): TreeSnapshot | null {
  const place = earlier.place ?? findPlace(root) ?? undefined;
  const where = placeEnv(place);
  const paths = runGit(
    root,
    [
      "rev-parse",
      "--show-toplevel",
      "--git-path",
      "hooks",
      "--git-path",
      "info/exclude",
      "--git-path",
      "index",
    ],
    where,
  );
  if (!paths.ok) return null;
  const [top, hooks, exclude, indexFile] = paths.stdout.split("\n");
  if (!top || !hooks || !exclude || !indexFile) return null;
  const at = Date.now();
  const kept = pinned(earlier.turn?.excludesFile ?? excludesFileNow(root, where));
  const env = distrustEnv(root, kept, where);
  const files: Record<string, string> = {};
  const rules: Record<string, string | null> = {};
  if (!listChanged(root, root, top, isProtected, files, NESTED_DEPTH, kept, env, rules))
    return null;
  const excludeAbs = resolve(root, exclude);
  for (const path of [excludeAbs, ...above(top, root)]) rules[path] = ruleText(path);
  if (kept[0][1] !== "") rules[resolve(top, kept[0][1])] = ruleText(resolve(top, kept[0][1]));
  const head = headCommit(root, where);
  // A new turn of the same session keeps the rules its first turn started with: a rule the
  // agent added in one turn hides nothing in the next.
  const turn: TurnRules =
    earlier.turn === undefined
      ? { at, excludesFile: kept[0][1], head, rules }
      : earlier.newTurn
        ? { ...earlier.turn, at }
        : earlier.turn;
  const look = {
    root,
    top,
    env,
    now: rules,
    committedText: (commit: string, topRel: string) => {
      const bytes = committedBytes(top, commit, topRel, where);
      return bytes === null ? null : new TextDecoder().decode(bytes);
    },
    committedRules: (from: string) =>
      head === null || head === from
        ? []
        : committedChanges(top, from, head, where)
            .filter((c) => basename(c.path) === ".gitignore")
            .map((c) => join(top, c.path)),
  };
  for (const rel of hiddenByNewRules(look, turn))
    files[rel] ??= signature(root, rel, isProtected(rel) !== null);
  const since = earlier.since ?? at;
  const index = lookAtIndex(root, where, racyFrom(resolve(root, indexFile), since));
  const inSubmodules = { root, isProtected, files, kept, since };
  lookIntoSubmodules(inSubmodules, root, index.submodules, NESTED_DEPTH - 1);
  const hooksDir = resolve(root, hooks);
  for (const name of names(hooksDir)) {
    const rel = relative(root, join(hooksDir, name));
    files[rel] = signature(root, rel, true);
  }
  // A pattern added there hides a new file from git status, so from every later look.
  const excludeRel = relative(root, excludeAbs);
  files[excludeRel] = signature(root, excludeRel, true);
  for (const name of names(root)) {
    if (watched(name)) files[name] = signature(root, name, true);
  }
  for (const rel of extra) files[rel] = signature(root, rel, true);
  for (const rel of index.hidden) files[rel] ??= signature(root, rel, isProtected(rel) !== null);
  return { files, head, turn, ...(place ? { place } : {}), at };
}

/** The `.gitignore` files in the folders from the work tree's top down to above `root`. */
function above(top: string, root: string): string[] {
  const found: string[] = [];
  for (let dir = dirname(root); dir.startsWith(top) && dir !== root; dir = dirname(dir)) {
    found.push(join(dir, ".gitignore"));
    if (dir === top || dirname(dir) === dir) break;
  }
  return found;
}

/**
 * The whole second from which git's index entries are looked at byte by byte: entries
 * recorded in or after the second of the last look (`since`), when the index was written
 * since then (its change time, which no one can set back, says so); else none.
 */
function racyFrom(indexFile: string, since: number): number | undefined {
  const from = Math.floor(since / 1000);
  try {
    return Math.floor(statSync(indexFile).ctimeMs / 1000) >= from ? from : undefined;
  } catch {
    return undefined;
  }
}

/** What every look into a submodule shares. */
interface SubmoduleLook {
  readonly root: string;
  readonly isProtected: ProtectedKind;
  readonly files: Record<string, string>;
  readonly kept: Pinned;
  readonly since: number;
}

/**
 * Each submodule of the repository at `repo` (paths relative to it): its commit, so a
 * commit made or checked out in it is seen, and its own changes, listed, its own
 * submodules too, as deep as `depth`.
 */
function lookIntoSubmodules(
  look: SubmoduleLook,
  repo: string,
  submodules: readonly string[],
  depth: number,
): void {
  if (depth < 0) return;
  const { root, isProtected, files, kept } = look;
  for (const path of submodules) {
    const inner = join(repo, path);
    if (!isRepository(inner)) continue;
    const env = distrustEnv(inner, kept, innerPlace(inner));
    const rel = relative(root, inner);
    files[rel] = `${SUBMODULE}${headCommit(inner, env) ?? "none"}`;
    listChanged(root, inner, inner, isProtected, files, depth, kept, env);
    const indexFile = runGit(inner, ["rev-parse", "--git-path", "index"], env);
    const racy = indexFile.ok
      ? racyFrom(resolve(inner, indexFile.stdout.replace(/\n$/, "")), look.since)
      : undefined;
    const index = lookAtIndex(inner, env, racy);
    for (const hidden of index.hidden)
      files[join(rel, hidden)] ??= signature(root, join(rel, hidden), false);
    lookIntoSubmodules(look, inner, index.submodules, depth - 1);
  }
}

/** A submodule's signature: this, then the commit its work tree has checked out. */
export const SUBMODULE = "c:";

/** How deep repositories inside the project's are looked into. */
const NESTED_DEPTH = 3;

/**
 * What `git status` run in `cwd` (whose work tree starts at `top`) lists, signed into
 * `files` by paths relative to `root`. A repository inside it (not a submodule) is listed
 * by git as one folder: its own changed files are listed from it, as deep as `depth`.
 * False when git fails.
 */
function listChanged(
  root: string,
  cwd: string,
  top: string,
  isProtected: ProtectedKind,
  files: Record<string, string>,
  depth: number,
  kept: Pinned,
  env: GitEnv,
  rules?: Record<string, string | null>,
): boolean {
  const status = runGit(cwd, STATUS, env);
  if (!status.ok) return false;
  for (const record of splitNul(status.stdout)) {
    const path = record.startsWith("! ") ? record.slice(2) : statusPath(record);
    if (path === null) continue;
    // Every `.gitignore` git does not hold unchanged: what it held as the turn started is
    // kept (see ignore-rules.ts). Those git holds unchanged hold what HEAD holds.
    if (rules !== undefined && basename(path) === ".gitignore")
      rules[join(top, path)] = ruleText(join(top, path));
    if (record.startsWith("! ")) continue;
    const rel = relative(root, join(top, path));
    if (rel === "" || rel.startsWith(`..${sep}`) || isAbsolute(rel)) continue;
    if (path.endsWith("/") && depth > 0 && isRepository(join(root, rel))) {
      const inner = join(root, rel);
      const innerEnv = distrustEnv(inner, kept, innerPlace(inner));
      if (listChanged(root, inner, inner, isProtected, files, depth - 1, kept, innerEnv)) continue;
    }
    files[rel] = signature(root, rel, isProtected(rel) !== null);
  }
  return true;
}

/** True when `dir` holds its own repository (`.git` a folder, or a file naming one). */
function isRepository(dir: string): boolean {
  try {
    lstatSync(join(dir, ".git"));
    return true;
  } catch {
    return false;
  }
}

/** The path of one `git status --porcelain=v2 -z` record (renames are off), or null. */
function statusPath(record: string): string | null {
  const fields = record[0] === "1" ? 8 : record[0] === "u" ? 10 : record[0] === "?" ? 1 : -1;
  if (fields < 0) return null; // "!" (ignored) and "2" (renames, off) are not listed
  let at = 0;
  for (let i = 0; i < fields; i++) at = record.indexOf(" ", at) + 1;
  return record.slice(at);
}

function names(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * A file's signature now: its stat data, or (`hashed`) a hash of its bytes, which says
 * whether a file was put back as it was. A symlink is signed by where it leads.
 */
export function signature(root: string, rel: string, hashed: boolean): string {
  const path = join(root, rel);
  try {
    const st = lstatSync(path, { bigint: true });
    if (st.isSymbolicLink()) return `h:link:${readlinkSync(path)}`;
    if (!st.isFile()) return `s:${st.mode}:${st.ino}`;
    if (hashed) return `h:${sha1Hex(readFileSync(path))}`;
    return `s:${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}`;
  } catch {
    return ABSENT;
  }
}
