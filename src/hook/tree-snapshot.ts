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
 * The project's files cheaply: what `git status` lists as differing (from its stat data,
 * without reading clean files), plus the protected files git may not list (ignored `.env`,
 * git hooks, agents' config), hashed. Two snapshots compared say what changed in between,
 * however it was written. Keys are relative to the root.
 */
export interface TreeSnapshot {
  /** `s:<stat>`, `h:<hash>`, or ABSENT. */
  readonly files: Readonly<Record<string, string>>;
  /** A file committed in between is clean in both lists, yet changed. */
  readonly head?: string | null;
  readonly turn?: TurnRules;
  readonly place?: GitPlace;
  /** The repository's `core.worktree` and `core.bare` then, as `placeMark` takes them. */
  readonly core?: readonly string[];
  /** When it was taken (ms since the epoch). */
  readonly at?: number;
}

export const ABSENT = "-";

export type ProtectedKind = (rel: string) => string | null;

export type WatchedNames = (name: string) => boolean;

const STATUS = [
  "--no-optional-locks",
  "status",
  "--porcelain=v2",
  "-z",
  "--no-renames",
  "--ignore-submodules=all",
  "--untracked-files=all",
  // Ignored entries too: a `.gitignore` among them hides itself, and what it ignores is looked at.
  "--ignored=matching",
  "--",
  ".",
];

export interface Earlier {
  /** None: taken now. */
  readonly turn?: TurnRules;
  /** None: found now. */
  readonly place?: GitPlace;
  /** Keeps `turn` but counts files changed from now. */
  readonly newTurn?: boolean;
  /** A file git recorded since may hide a rewrite. */
  readonly since?: number;
}

/** null outside a git work tree (or when git fails): shell changes are then not seen. */
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
  const core: string[] = [];
  const env = distrustEnv(root, kept, where, core);
  const files: Record<string, string> = {};
  const rules: Record<string, string | null> = {};
  if (!listChanged(root, root, top, isProtected, files, NESTED_DEPTH, kept, env, rules))
    return null;
  const excludeAbs = resolve(root, exclude);
  for (const path of [excludeAbs, ...above(top, root)]) rules[path] = ruleText(path);
  if (kept[0][1] !== "") rules[resolve(top, kept[0][1])] = ruleText(resolve(top, kept[0][1]));
  const head = headCommit(root, where);
  // The rules the first turn started with: a rule the agent added in one turn hides nothing in the
  // next.
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
  return { files, head, turn, ...(place ? { place } : {}), core: core.sort(), at };
}

/** From the work tree's top down to above `root`. */
function above(top: string, root: string): string[] {
  const found: string[] = [];
  for (let dir = dirname(root); dir.startsWith(top) && dir !== root; dir = dirname(dir)) {
    found.push(join(dir, ".gitignore"));
    if (dir === top || dirname(dir) === dir) break;
  }
  return found;
}

/** Entries recorded since the last look's second are compared by bytes, when the index was written since. */
function racyFrom(indexFile: string, since: number): number | undefined {
  const from = Math.floor(since / 1000);
  try {
    return Math.floor(statSync(indexFile).ctimeMs / 1000) >= from ? from : undefined;
  } catch {
    return undefined;
  }
}

interface SubmoduleLook {
  readonly root: string;
  readonly isProtected: ProtectedKind;
  readonly files: Record<string, string>;
  readonly kept: Pinned;
  readonly since: number;
}

/** Its commit (a commit made or checked out in it) and its own changes, as deep as `depth`. */
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

const NESTED_DEPTH = 3;

/** A nested repository is one folder to git: its changes are listed from it. False when git fails. */
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
    // A `.gitignore` git does not hold unchanged keeps its text from the turn's start.
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

/** `.git` a folder, or a file naming one. */
function isRepository(dir: string): boolean {
  try {
    lstatSync(join(dir, ".git"));
    return true;
  } catch {
    return false;
  }
}

/** Renames are off. */
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

/** `hashed`: its bytes' hash, which says whether it was put back. A symlink is signed by where it leads. */
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
