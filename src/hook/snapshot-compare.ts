import { join } from "node:path";
import { type GitEnv, runGit, splitNul } from "../match/git.ts";
import { sha1Hex } from "../platform/digest.ts";
import { committedBytes, committedChanges } from "./git-hidden-edits.ts";
import { innerPlace, placeEnv } from "./git-place.ts";
import { ABSENT, SUBMODULE, signature, type TreeSnapshot } from "./tree-snapshot.ts";

export interface TreeChange {
  readonly path: string;
  readonly kind: "created" | "modified" | "deleted";
  /** ABSENT when it did not exist, "clean" when git held it unchanged. */
  readonly before: string;
}

/** A path listed only before (put back, or deleted) is signed again now; one listed only after was clean or absent. */
export function compareSnapshots(
  root: string,
  before: TreeSnapshot,
  after: TreeSnapshot,
  hashed: (rel: string) => boolean = () => false,
): TreeChange[] {
  const changes: TreeChange[] = [];
  const where = placeEnv(after.place ?? before.place);
  const keys = new Set([...Object.keys(before.files), ...Object.keys(after.files)]);
  const committed = new Map<string, boolean>();
  if (before.head && after.head && before.head !== after.head)
    for (const c of committedChanges(root, before.head, after.head, where))
      if (!keys.has(c.path)) committed.set(c.path, c.added);
  for (const [path, added] of committed) {
    const now = signature(root, path, false);
    const kind = now === ABSENT ? "deleted" : added ? "created" : "modified";
    changes.push({
      path,
      kind,
      before: added ? ABSENT : committedBefore(root, before.head, path, hashed, where),
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
    where,
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

/** null when `path` is not a submodule that moved or git cannot say: then the folder itself is the change. */
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
  const changed = committedChanges(inner, from, to, innerPlace(inner));
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

/** For a protected file, a hash of what the old HEAD held: committed, git lists it clean. */
function committedBefore(
  root: string,
  head: string | null | undefined,
  path: string,
  hashed: (rel: string) => boolean,
  where: GitEnv,
): string {
  if (!head || !hashed(path)) return "clean";
  const bytes = committedBytes(root, head, path, where);
  return bytes === null ? "clean" : `h:${sha1Hex(bytes)}`;
}

/** In a few git calls however many paths there are. */
function tracked(root: string, where: GitEnv, paths: readonly string[]): Set<string> {
  const held = new Set<string>();
  for (let at = 0; at < paths.length; at += ASKED_AT_ONCE) {
    const some = paths.slice(at, at + ASKED_AT_ONCE);
    const r = runGit(root, ["--literal-pathspecs", "ls-files", "-z", "--", ...some], where);
    if (r.ok) for (const path of splitNul(r.stdout)) held.add(path);
  }
  return held;
}

const ASKED_AT_ONCE = 500;
