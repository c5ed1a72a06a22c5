import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";
import { runGit, splitNul } from "../match/git.ts";
import { sha1Hex } from "../platform/digest.ts";
import { distrustEnv } from "./git-distrust.ts";
import { committedBytes, committedChanges, headCommit, lookAtIndex } from "./git-hidden-edits.ts";
import {
  excludesFileNow,
  hiddenByNewRules,
  type Pinned,
  pinned,
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

/**
 * The snapshot of `root`, or null when it is not in a git work tree (or git fails): then
 * nothing can be compared cheaply and changes through the shell are not seen.
 */
export function takeSnapshot(
  root: string,
  isProtected: ProtectedKind,
  watched: WatchedNames,
  extra: readonly string[] = [],
  earlier?: TurnRules,
  newTurn = false,
): TreeSnapshot | null {
  const where = runGit(root, [
    "rev-parse",
    "--show-toplevel",
    "--git-path",
    "hooks",
    "--git-path",
    "info/exclude",
  ]);
  if (!where.ok) return null;
  const [top, hooks, exclude] = where.stdout.split("\n");
  if (!top || !hooks || !exclude) return null;
  const at = Date.now();
  const kept = pinned(earlier?.excludesFile ?? excludesFileNow(root));
  const files: Record<string, string> = {};
  const rules: Record<string, string> = {};
  if (!listChanged(root, root, top, isProtected, files, NESTED_DEPTH, kept, rules)) return null;
  // A new turn of the same session keeps the rules its first turn started with: a rule the
  // agent added in one turn hides nothing in the next.
  const turn =
    earlier === undefined
      ? { at, excludesFile: kept[0][1], hiddenRules: rules }
      : newTurn
        ? { ...earlier, at }
        : earlier;
  for (const rel of hiddenByNewRules(root, turn, rules, () => distrustEnv(root, kept)))
    files[rel] ??= signature(root, rel, isProtected(rel) !== null);
  const index = lookAtIndex(root);
  for (const rel of index.submodules) {
    const inner = join(root, rel);
    if (!isRepository(inner)) continue;
    // Its commit, so a commit made or checked out in it is seen; its own changes, listed.
    files[rel] = `${SUBMODULE}${headCommit(inner) ?? "none"}`;
    listChanged(root, inner, inner, isProtected, files, NESTED_DEPTH - 1, kept);
  }
  const hooksDir = resolve(root, hooks);
  for (const name of names(hooksDir)) {
    const rel = relative(root, join(hooksDir, name));
    files[rel] = signature(root, rel, true);
  }
  // A pattern added there hides a new file from git status, so from every later look.
  const excludeRel = relative(root, resolve(root, exclude));
  files[excludeRel] = signature(root, excludeRel, true);
  for (const name of names(root)) {
    if (watched(name)) files[name] = signature(root, name, true);
  }
  for (const rel of extra) files[rel] = signature(root, rel, true);
  for (const rel of index.hidden) files[rel] ??= signature(root, rel, isProtected(rel) !== null);
  return { files, head: headCommit(root), turn };
}

/** A submodule's signature: this, then the commit its work tree has checked out. */
const SUBMODULE = "c:";

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
  rules?: Record<string, string>,
): boolean {
  const status = runGit(cwd, STATUS, distrustEnv(cwd, kept));
  if (!status.ok) return false;
  for (const record of splitNul(status.stdout)) {
    if (record.startsWith("! ")) {
      const rel = record.slice(2);
      if (rules !== undefined && basename(rel) === ".gitignore")
        rules[rel] = signature(root, rel, true);
      continue;
    }
    const path = statusPath(record);
    if (path === null) continue;
    const rel = relative(root, join(top, path));
    if (rel === "" || rel.startsWith(`..${sep}`) || isAbsolute(rel)) continue;
    if (path.endsWith("/") && depth > 0 && isRepository(join(root, rel))) {
      const inner = join(root, rel);
      if (listChanged(root, inner, inner, isProtected, files, depth - 1, kept)) continue;
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

/** One path that differs between two snapshots. */
export interface TreeChange {
  readonly path: string;
  readonly kind: "created" | "modified" | "deleted";
  /** Its signature in the earlier snapshot: ABSENT when it did not exist, "clean" when git held it unchanged. */
  readonly before: string;
}

/**
 * Every path whose signature differs between `before` and `after`. A path listed only
 * before (it was put back to what git holds, or deleted) is signed again now; one listed
 * only after was clean, or did not exist, before.
 */
export function compareSnapshots(
  root: string,
  before: TreeSnapshot,
  after: TreeSnapshot,
  hashed: (rel: string) => boolean = () => false,
): TreeChange[] {
  const changes: TreeChange[] = [];
  const keys = new Set([...Object.keys(before.files), ...Object.keys(after.files)]);
  const committed = new Map<string, boolean>();
  if (before.head && after.head && before.head !== after.head)
    for (const c of committedChanges(root, before.head, after.head))
      if (!keys.has(c.path)) committed.set(c.path, c.added);
  for (const [path, added] of committed) {
    const now = signature(root, path, false);
    const kind = now === ABSENT ? "deleted" : added ? "created" : "modified";
    changes.push({
      path,
      kind,
      before: added ? ABSENT : committedBefore(root, before.head, path, hashed),
    });
  }
  const differ: { path: string; was: string | undefined; now: string }[] = [];
  for (const path of [...keys].sort()) {
    const was = before.files[path];
    const now =
      after.files[path] ??
      (was === undefined ? ABSENT : signature(root, path, was.startsWith("h:")));
    if (was !== now) differ.push({ path, was, now });
  }
  const held = tracked(
    root,
    differ.filter((d) => d.was === undefined && d.now !== ABSENT).map((d) => d.path),
  );
  for (const { path, was, now } of differ) {
    const moved = submoduleMoved(root, path, was, now, keys);
    if (moved !== null) {
      changes.push(...moved);
      continue;
    }
    const kind =
      now === ABSENT
        ? "deleted"
        : was === ABSENT || (was === undefined && !held.has(path))
          ? "created"
          : "modified";
    changes.push({ path, kind, before: was ?? (kind === "created" ? ABSENT : "clean") });
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * The files a submodule's move from one commit to another changed (a commit made in it, a
 * checkout), or null when `path` is not a submodule that moved or git cannot say: then the
 * folder itself is the change.
 */
function submoduleMoved(
  root: string,
  path: string,
  was: string | undefined,
  now: string,
  listed: ReadonlySet<string>,
): TreeChange[] | null {
  if (!was?.startsWith(SUBMODULE) || !now.startsWith(SUBMODULE)) return null;
  const from = was.slice(SUBMODULE.length);
  const to = now.slice(SUBMODULE.length);
  const inner = join(root, path);
  const changed = committedChanges(inner, from, to);
  if (changed.length === 0) return null;
  const moved: TreeChange[] = [];
  for (const c of changed) {
    const rel = join(path, c.path);
    if (listed.has(rel)) continue;
    const kind =
      signature(root, rel, false) === ABSENT ? "deleted" : c.added ? "created" : "modified";
    moved.push({ path: rel, kind, before: c.added ? ABSENT : "clean" });
  }
  return moved;
}

/**
 * What a file committed in between held before: "clean" (what the old HEAD held), or for a
 * protected file a hash of those bytes, since once committed git lists it clean again and
 * only its bytes say whether it was put back.
 */
function committedBefore(
  root: string,
  head: string | null | undefined,
  path: string,
  hashed: (rel: string) => boolean,
): string {
  if (!head || !hashed(path)) return "clean";
  const bytes = committedBytes(root, head, path);
  return bytes === null ? "clean" : `h:${sha1Hex(bytes)}`;
}

/**
 * Which of `paths` git holds, asked in a few calls however many there are (a command that
 * wrote thousands of files is not one git call per file).
 */
function tracked(root: string, paths: readonly string[]): Set<string> {
  const held = new Set<string>();
  for (let at = 0; at < paths.length; at += ASKED_AT_ONCE) {
    const some = paths.slice(at, at + ASKED_AT_ONCE);
    const r = runGit(root, ["--literal-pathspecs", "ls-files", "-z", "--", ...some]);
    if (r.ok) for (const path of splitNul(r.stdout)) held.add(path);
  }
  return held;
}

const ASKED_AT_ONCE = 500;
