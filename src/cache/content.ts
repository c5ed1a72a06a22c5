import { existsSync } from "node:fs";
import { join } from "node:path";
import { runGit, runGitAsync, splitNul } from "../match/git.ts";
import { gitPrefix } from "../match/git-prefix.ts";
import { sha1Hex } from "../platform/digest.ts";
import { readRegularFile } from "../util/read-regular.ts";
import { isStatePath } from "../util/state-layout.ts";
import { blobId } from "./blob-id.ts";
import { gitConverts } from "./conversions.ts";
import { diskModeTag, indexModesTrusted, modeTag } from "./file-mode.ts";
import { filesOnDisk, type IndexListing, LISTING, parseIndexListing } from "./index-listing.ts";
import { keepId, readKeptId } from "./kept-ids.ts";
import { objectFormat } from "./object-format.ts";
import { noteFileRead } from "./outside-reads.ts";
import { TOOL_CONFIG_NAMES } from "./tool-configs.ts";

/** The content id of a file that is not there (deleted, never made, not a regular file). */
export const NO_CONTENT = "none";

/** Files larger than this are not hashed: a check of one never matches a record. */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;

/** The content id of one root-relative file as on disk now (NO_CONTENT when none, or too big). */
export function fileContentId(root: string, path: string): string {
  if (path === "" || path.startsWith("/")) return NO_CONTENT;
  const bytes = readRegularFile(join(root, path), MAX_HASHED_BYTES);
  return bytes === null ? NO_CONTENT : blobId(bytes, objectFormat(root));
}

/** A pinned snapshot's answer for a file it does not hold: no key is made with it (see runKey). */
export const UNKNOWN = "unknown";

/** Past this many files, their ids come from git's index (one listing) rather than each file's bytes. */
export const MANY_FILES = 64;

/**
 * Content ids of root-relative files as on disk now. Many files: the index's blob ids for
 * those git sees unchanged (its stat cache answers for them), the others hashed from disk;
 * from `project`'s listing when given, so the runs of one batch ask git once.
 */
export function contentIds(
  root: string,
  paths: Iterable<string>,
  project?: ProjectSnapshot,
): Map<string, string> {
  const wanted = new Set(paths);
  const many = wanted.size > MANY_FILES ? (project ?? new ProjectSnapshot(root)) : null;
  const known = many?.converts() === false ? many.content(Number.POSITIVE_INFINITY) : null;
  const ids = new Map<string, string>();
  for (const path of wanted) ids.set(path, known?.get(path) ?? readId(root, path));
  return ids;
}

/**
 * The content id of each of `paths` as on disk now, at the same index: {@link contentIds}
 * without a map, for a caller that walks the paths in order anyway. `distinct`: how many
 * different paths there are, when the caller knows. `modes`, when given, gets each file's
 * mode tag (see file-mode.ts) at the same index, from where its id came from; `fromDisk` the
 * paths whose ids were read from their bytes rather than from git's answers.
 */
export function contentIdList(
  root: string,
  paths: readonly string[],
  project?: ProjectSnapshot,
  distinct = new Set(paths).size,
  modes?: string[],
  fromDisk?: string[],
): string[] {
  if (project?.committedConfigs() !== undefined) {
    // a staged file's mode as the index holds it; a tool config's is not read
    if (modes !== undefined) for (const p of paths) modes.push(project.committedModeTag(p));
    return paths.map((p) => project.committedId(p) ?? UNKNOWN);
  }
  const many = distinct > MANY_FILES ? (project ?? new ProjectSnapshot(root)) : null;
  const known = many?.converts() === false ? many.idsOf(paths) : null;
  const ids: string[] = new Array(paths.length);
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i] as string;
    const id = known?.[i];
    ids[i] = id ?? readId(root, path);
    if (id === undefined) fromDisk?.push(path);
    if (modes !== undefined)
      modes[i] = id === undefined || many === null ? diskModeTag(root, path) : many.modeOf(path);
  }
  return ids;
}

/** A key's content id read from the bytes on disk: noted, as git's answers do not vouch for it. */
export function readId(root: string, path: string): string {
  const id = fileContentId(root, path);
  noteFileRead(path, id);
  return id;
}

/**
 * The blob ids HEAD holds for root-relative `paths` (a path HEAD lacks is absent); null
 * outside git or before the first commit. One `git ls-tree` for them all.
 */
export function headBlobs(root: string, paths: readonly string[]): Map<string, string> | null {
  const wanted = paths.filter((p) => p !== "" && !p.startsWith("/"));
  const out = new Map<string, string>();
  if (wanted.length === 0) return out;
  const r = runGit(root, ["ls-tree", "-r", "-z", "HEAD", "--", ...wanted]);
  if (!r.ok) return null;
  for (const entry of splitNul(r.stdout)) {
    // "<mode> blob <id>\t<path>", the path relative to root (git's cwd)
    const tab = entry.indexOf("\t");
    const fields = entry.slice(0, tab).split(" ");
    if (tab > 0 && fields[1] === "blob" && fields[2]) out.set(entry.slice(tab + 1), fields[2]);
  }
  return out;
}

/** The state of the work tree as one `git status` saw it: HEAD's commit and what differs from it. */
export interface WorktreeState {
  /** HEAD's commit; null before the first commit. */
  readonly commit: string | null;
  /** Root-relative files changed in the work tree or index, or untracked and not ignored. */
  readonly dirty: readonly string[];
  /** Root-relative files the index holds that are not in the work tree (deleted, or a folder now). */
  readonly gone: ReadonlySet<string>;
  /** An unmerged or intent-to-add entry: git's index says more than the files' content. */
  readonly unusual: boolean;
  /** Root-relative submodules whose commit or work tree differ from what the index holds. */
  readonly submodules: ReadonlySet<string>;
}

/** The `git status` that says HEAD's commit and what differs from it, for root's `prefix`. */
function statusArgs(prefix: string): string[] {
  return [
    "status",
    "--porcelain=v2",
    "--branch",
    "-z",
    "--untracked-files=all",
    "--no-renames",
    // a submodule's own changes, whatever the config says to hide: a key reads its content
    "--ignore-submodules=none",
    ...(prefix === "" ? [] : ["--", "."]),
  ];
}

/**
 * One `git status` for both HEAD's commit and the files that differ from it, so the two
 * always describe the same moment. Null outside git or when git fails.
 */
function worktreeState(root: string): WorktreeState | null {
  const prefix = gitPrefix(root);
  if (prefix === null) return null;
  const r = runGit(root, statusArgs(prefix));
  return r.ok ? parseWorktree(r.stdout, prefix) : null;
}

function parseWorktree(stdout: string, prefix: string): WorktreeState {
  let commit: string | null = null;
  const dirty: string[] = [];
  const gone = new Set<string>();
  const submodules = new Set<string>();
  let unusual = false;
  for (const entry of splitNul(stdout)) {
    if (entry.startsWith("# branch.oid ")) {
      const oid = entry.slice("# branch.oid ".length);
      commit = /^[0-9a-f]{40,64}$/.test(oid) ? oid : null;
      continue;
    }
    const path = statusPath(entry);
    if (path === null || !path.startsWith(prefix)) continue;
    // "u ...": unmerged; "1 .A ...": added with intent to add
    if (entry[0] === "u" || (entry[0] === "1" && entry[2] === "." && entry[3] === "A"))
      unusual = true;
    const own = path.slice(prefix.length);
    if (own === "") continue;
    dirty.push(own);
    // "1 XY S<c><m><u> ...": a submodule
    if (entry[0] !== "?" && entry[5] === "S") submodules.add(own);
    // "1 XY ...": Y is the work tree against the index, D when the file is not there
    if (entry[0] === "1" && entry[3] === "D") gone.add(own);
  }
  return { commit, dirty, gone, unusual, submodules };
}

/** A `git status` started now, for a snapshot read once it ends (see readProjectAhead). */
export interface StatusAhead {
  readonly root: string;
  readonly state: Promise<WorktreeState | null>;
}

/** Start the `git status` of {@link ProjectSnapshot}; null outside git. */
export function statusAhead(root: string): StatusAhead | null {
  const prefix = gitPrefix(root);
  if (prefix === null) return null;
  const state = runGitAsync(root, statusArgs(prefix)).then(
    (r) => (r.ok ? parseWorktree(r.stdout, prefix) : null),
    () => null,
  );
  return { root, state };
}

/**
 * The project as it is now, its two git answers asked at once and without waiting: for a
 * command that can ask while its config loads (`check --all`). Null outside git or when
 * git fails (the snapshot then asks again as it needs). `status`: one already started.
 */
export async function readProjectAhead(
  root: string,
  status: StatusAhead | null = statusAhead(root),
): Promise<ProjectSnapshot | null> {
  if (status === null) return null;
  // the listing is parsed while status still walks the tree for untracked files
  const [state, index] = await Promise.all([
    status.state,
    runGitAsync(root, LISTING).then((r) => (r.ok ? parseIndexListing(r.stdout) : null)),
  ]);
  if (state === null || index === null) return null;
  return ProjectSnapshot.read(root, state, index);
}

/** Fields before the path in each kind of `git status --porcelain=v2` entry. */
const FIELDS_BEFORE_PATH: Readonly<Record<string, number>> = { "1": 8, u: 10, "?": 1, "!": 1 };

/** The path (from git's top) of one porcelain v2 entry; null for a header or an unknown kind. */
function statusPath(entry: string): string | null {
  const fields = FIELDS_BEFORE_PATH[entry.slice(0, 1)];
  if (fields === undefined || entry[1] !== " ") return null;
  let at = 0;
  for (let i = 0; i < fields; i++) {
    at = entry.indexOf(" ", at) + 1;
    if (at === 0) return null;
  }
  return entry.slice(at);
}

/** Tree ids by commit and folder: a commit's tree never changes, so each is asked once. */
const trees = new Map<string, string>();

/** Under `.cpilot/cache/`: the root's tree id by commit, for the next process. */
const TREES = "trees";

/** The id of `commit`'s tree at `root` (a subfolder's own tree); null when git cannot say. */
function treeOf(root: string, commit: string): string | null {
  const memo = `${commit}\0${root}`;
  const known = trees.get(memo) ?? readKeptId(root, TREES, sha1Hex(commit));
  if (known !== undefined && known !== null) {
    trees.set(memo, known);
    return known;
  }
  const r = runGit(root, ["rev-parse", "--verify", "-q", `${commit}^{commit}:./`]);
  const id = r.stdout.trim();
  if (!r.ok || !/^[0-9a-f]{40,64}$/.test(id)) return null;
  trees.set(memo, id);
  keepId(root, TREES, sha1Hex(commit), id);
  return id;
}

/**
 * The project's content at one moment, each git answer asked once: HEAD's tree, the files
 * that differ from it, the key of the whole, every file's id. For one comparison, or the
 * cache lookups of one batch, where each was asked two or three times.
 */
export class ProjectSnapshot {
  private state: WorktreeState | null | undefined;
  private treeId: string | null | undefined;
  private dirtyFiles: string[] | null | undefined;
  private dirtyIds: Map<string, string> | undefined;
  private everyId: Map<string, string> | null | undefined;
  /** The index as read ahead (see readProjectAhead): the files on disk (see trackedFiles), their ids until content() takes them. */
  private index: IndexListing | undefined;
  /** See pinned(). */
  private committedIds: ReadonlyMap<string, string> | undefined;
  private committedModes: ReadonlyMap<string, string> | undefined;
  private dirtyModes: Map<string, string> | undefined;
  private converting: boolean | undefined;
  private convertedId: string | null | undefined;

  constructor(private readonly root: string) {}

  /** The project from its `git status` and `git ls-files -s`, read by the caller at one time. */
  static read(root: string, state: WorktreeState, index: IndexListing): ProjectSnapshot {
    const project = new ProjectSnapshot(root);
    project.state = state;
    project.index = index;
    return project;
  }

  /**
   * The files git tracks that are on disk now, in git's order (`check --all`'s files), from
   * the two answers read ahead: no directory listing, no stat per file. Null when the
   * snapshot was not read ahead.
   */
  trackedFiles(): string[] | null {
    if (this.index === undefined || this.state == null) return null;
    return filesOnDisk(this.root, this.index, this.state.gone);
  }

  /**
   * The project as a pass of git's already saw it, without asking again: HEAD's commit and
   * the files that differ from it with their content ids (cpilot's state files left out). For
   * a caller that knows the tree holds exactly that now (see src/stage/staged-project.ts).
   */
  static seeded(
    root: string,
    commit: string,
    changed: ReadonlyMap<string, string>,
  ): ProjectSnapshot {
    const project = new ProjectSnapshot(root);
    const dirty = [...changed.keys()].filter((p) => !isStatePath(p)).sort();
    project.state = { commit, dirty, gone: new Set(), unusual: false, submodules: new Set() };
    project.dirtyFiles = dirty;
    project.dirtyIds = new Map(dirty.map((p) => [p, changed.get(p) ?? NO_CONTENT]));
    return project;
  }

  /**
   * The content about to be committed, read from git's index and never from disk, whatever
   * the tree holds meanwhile: HEAD's commit, the staged files (`changed`), and `configs`, the
   * id of every tool config the index holds (see TOOL_CONFIGS), and `indexed`, "<mode> <id>"
   * of each staged file as the index holds it (its mode is read from there). A key made from
   * it names only those files' content: one that reads another from disk cannot be made (see
   * committedId).
   */
  static pinned(
    root: string,
    commit: string,
    changed: ReadonlyMap<string, string>,
    configs: ReadonlyMap<string, string>,
    indexed: ReadonlyMap<string, string> = new Map(),
  ): ProjectSnapshot {
    const project = ProjectSnapshot.seeded(root, commit, changed);
    const ids = new Map(configs);
    for (const [path, id] of changed) ids.set(path, id);
    project.committedIds = ids;
    const modes = new Map<string, string>();
    for (const [path, entry] of indexed) modes.set(path, entry.slice(0, entry.indexOf(" ")));
    project.committedModes = modes;
    return project;
  }

  /** The project from its `git status` alone: enough for key(), not for the listing's answers. */
  static fromStatus(root: string, state: WorktreeState): ProjectSnapshot {
    const project = new ProjectSnapshot(root);
    project.state = state;
    return project;
  }

  /**
   * For a pinned snapshot, a file's committed content id: a staged file's, a tool config's
   * (NO_CONTENT where the index has none), else null (the snapshot cannot say: no key).
   * Undefined for a snapshot of the tree as it is, whose ids are read from disk.
   */
  committedId(path: string): string | null | undefined {
    const ids = this.committedIds;
    if (ids === undefined) return undefined;
    const id = ids.get(path);
    if (id !== undefined) return id;
    return TOOL_CONFIG_NAMES.has(path.slice(path.lastIndexOf("/") + 1)) ? NO_CONTENT : null;
  }

  /** A pinned snapshot's mode tag of a staged file (see file-mode.ts); "" for any other. */
  committedModeTag(path: string): string {
    return modeTag(this.committedModes?.get(path));
  }

  /** A pinned snapshot's tool configs with their ids, as packageFileIds reads them; undefined otherwise. */
  committedConfigs(): ReadonlyMap<string, string> | undefined {
    return this.committedIds;
  }

  /**
   * Does git's index hold an entry whose content `git status` does not compare (skip-worktree,
   * assume-unchanged) or that is unmerged or intent-to-add? Null when not read ahead.
   */
  flagged(): boolean | null {
    if (this.index === undefined || this.state == null) return null;
    return this.index.unsure.size > 0 || this.state.unusual;
  }

  private worktree(): WorktreeState | null {
    if (this.state === undefined) this.state = worktreeState(this.root);
    return this.state;
  }

  /** HEAD's tree at the root; null outside git or before the first commit. */
  tree(): string | null {
    if (this.treeId === undefined) {
      const commit = this.worktree()?.commit ?? null;
      this.treeId = commit === null ? null : treeOf(this.root, commit);
    }
    return this.treeId;
  }

  private dirty(): string[] | null {
    if (this.dirtyFiles === undefined) {
      const state = this.worktree();
      this.dirtyFiles = state === null ? null : state.dirty.filter((p) => !isStatePath(p)).sort();
    }
    return this.dirtyFiles;
  }

  /** The files that differ from HEAD with their content ids now; null outside git. */
  changed(): ReadonlyMap<string, string> | null {
    return this.dirty() === null ? null : this.idsOfDirty();
  }

  private idsOfDirty(): Map<string, string> {
    if (this.dirtyIds === undefined) {
      const submodules = this.state?.submodules;
      // each hashed from disk: contentIds would list the project through a snapshot again
      this.dirtyIds = new Map(
        (this.dirty() ?? []).map((p) => [
          p,
          submodules?.has(p) ? submoduleId(this.root, p) : fileContentId(this.root, p),
        ]),
      );
    }
    return this.dirtyIds;
  }

  /** A changed file's mode tag, from disk (see file-mode.ts). */
  private dirtyMode(path: string): string {
    this.dirtyModes ??= new Map();
    let tag = this.dirtyModes.get(path);
    if (tag === undefined) {
      tag = diskModeTag(this.root, path);
      this.dirtyModes.set(path, tag);
    }
    return tag;
  }

  /**
   * The mode tag (see file-mode.ts) of a file of the project now: a changed file's read from
   * disk; another's from git's index, whose mode git compared with the file's as it called it
   * unchanged (from disk where git does not compare modes or cannot say).
   */
  modeOf(path: string): string {
    // a pinned snapshot's: the index's, never the disk's
    if (this.committedModes !== undefined)
      return modeTag(this.committedModes.get(path) ?? this.listing()?.modes.get(path));
    if (this.idsOfDirty().has(path)) return this.dirtyMode(path);
    const index = this.listing();
    if (index === undefined || index.unsure.has(path) || !indexModesTrusted(this.root))
      return diskModeTag(this.root, path);
    return modeTag(index.modes.get(path));
  }

  /**
   * A changed file's path and content id with its mode tag, as keys name it. A pinned
   * snapshot's files are the index's, their modes not read from disk.
   */
  dirtyEntry(path: string, id: string | undefined): string {
    const tag =
      this.committedModes === undefined
        ? this.dirtyMode(path)
        : modeTag(this.committedModes.get(path));
    return tag === "" ? `${path}\0${id}` : `${path}\0${id}\0${tag}`;
  }

  /**
   * May a file git calls unchanged hold bytes other than its index blob's, git converting them
   * as it compares (see conversions.ts), or a mode git does not compare? True when git cannot say.
   */
  converts(): boolean {
    if (this.converting === undefined) {
      const tree = this.tree();
      const dirty = this.dirty();
      this.converting =
        tree === null ||
        dirty === null ||
        !indexModesTrusted(this.root) ||
        gitConverts(this.root, tree, dirty);
    }
    return this.converting;
  }

  /**
   * What HEAD's tree stands for in a key, where git does not vouch for it (see converts()):
   * one id of each file the index holds that git calls unchanged, with its content id read
   * from disk. "" where git does not convert; null when git cannot say.
   */
  convertedContent(): string | null {
    if (this.convertedId === undefined) {
      const index = this.converts() ? this.listing() : null;
      const dirty = this.dirty() === null ? null : this.idsOfDirty();
      if (index === undefined || dirty === null) this.convertedId = null;
      else if (index === null) this.convertedId = "";
      else {
        const entries: string[] = [];
        const modes = !indexModesTrusted(this.root);
        for (const path of index.files) {
          if (dirty.has(path)) continue;
          const id = readId(this.root, path);
          entries.push(
            modes ? `${path}\0${id}\0${diskModeTag(this.root, path)}` : `${path}\0${id}`,
          );
        }
        this.convertedId = sha1Hex(entries.join("\n"));
      }
    }
    return this.convertedId;
  }

  /** The index as listed, listed now when it was not read ahead; undefined when git fails. */
  private listing(): IndexListing | undefined {
    // content() lists once, whatever it returns for a bound of 0
    if (this.index === undefined && this.everyId === undefined) this.content(0);
    return this.index;
  }

  /**
   * The project's content in one key: HEAD's tree at the root and the content of each file
   * that differs from it (changed, staged, untracked and not ignored). Equal to the tree id
   * itself when nothing differs, so a run on a clean tree and HEAD's record share a key.
   * Null outside git or before the first commit.
   */
  key(): string | null {
    const tree = this.tree();
    const dirty = this.dirty();
    if (tree === null || dirty === null) return null;
    if (dirty.length === 0) return tree;
    const ids = this.idsOfDirty();
    // a submodule git cannot say the content of: no key
    if (dirty.some((path) => ids.get(path) === UNKNOWN)) return null;
    return sha1Hex([tree, ...dirty.map((path) => this.dirtyEntry(path, ids.get(path)))].join("\n"));
  }

  /**
   * Every file of the project (tracked, or untracked and not ignored) with its content id,
   * at most `max` of them (null past it, outside git, or when git fails): index blob ids from
   * `git ls-files -s`, those of files that differ from HEAD or the index hashed from disk.
   * Listed once, whatever `max` later calls give. Read only. */
  content(max: number): ReadonlyMap<string, string> | null {
    if (this.everyId === undefined) this.everyId = this.list();
    return this.everyId === null || this.everyId.size > max ? null : this.everyId;
  }

  /**
   * The content id of each of `paths`, at the same index, as content() would give it
   * (undefined where it has none); null where content() is. Paths in git's order (a check of
   * listed files) are found by walking the index with them, with no map of every file made.
   */
  idsOf(paths: readonly string[]): (string | undefined)[] | null {
    if (this.everyId !== undefined) {
      const every = this.everyId;
      return every === null ? null : paths.map((p) => every.get(p));
    }
    const index = this.index;
    const dirty = this.dirty() === null ? null : this.idsOfDirty();
    if (index === undefined || dirty === null) {
      const every = this.content(Number.POSITIVE_INFINITY);
      return every === null ? null : paths.map((p) => every.get(p));
    }
    const { paths: listed, blobs } = index;
    const out: (string | undefined)[] = new Array(paths.length);
    let at = 0;
    let byPath: ReadonlyMap<string, string> | null = null;
    for (let i = 0; i < paths.length; i++) {
      const path = paths[i] as string;
      const changed = dirty.size === 0 ? undefined : dirty.get(path);
      if (changed !== undefined) {
        out[i] = changed;
        continue;
      }
      if (byPath === null) {
        let found = at;
        while (found < listed.length && listed[found] !== path) found++;
        if (found < listed.length) {
          out[i] = blobs[found];
          at = found + 1;
          continue;
        }
        // not in git's order after all (or not in the index): look the rest up by name
        byPath = index.ids;
      }
      out[i] = byPath.get(path);
    }
    return out;
  }

  /** Each file's path and content id, as content() holds them, in no set order; false where content() is null. */
  forEachId(visit: (path: string, id: string) => void): boolean {
    const index = this.index;
    if (this.everyId !== undefined || index === undefined) {
      const every = this.content(Number.POSITIVE_INFINITY);
      if (every === null) return false;
      for (const [path, id] of every) visit(path, id);
      return true;
    }
    if (this.dirty() === null) return false;
    const dirty = this.idsOfDirty();
    const { paths, blobs } = index;
    for (let i = 0; i < paths.length; i++) {
      const path = paths[i] as string;
      if (!dirty.has(path)) visit(path, blobs[i] as string);
    }
    for (const [path, id] of dirty) visit(path, id);
    return true;
  }

  private list(): Map<string, string> | null {
    let ids = this.index?.ids;
    if (ids === undefined) {
      const listed = runGit(this.root, LISTING);
      if (!listed.ok) return null;
      this.index = parseIndexListing(listed.stdout);
      ids = this.index.ids;
    }
    if (this.dirty() === null) return null;
    for (const [path, id] of this.idsOfDirty()) ids.set(path, id);
    return ids;
  }
}

/**
 * A changed submodule's content id: its own HEAD's tree and what differs from it, as a
 * snapshot of the submodule keys them (so a file changed again inside it changes the id);
 * UNKNOWN when git cannot say. One not checked out is no content, as before.
 */
function submoduleId(root: string, path: string): string {
  const top = join(root, path);
  if (!existsSync(join(top, ".git"))) return fileContentId(root, path);
  const key = new ProjectSnapshot(top).key();
  return key === null ? UNKNOWN : `submodule:${key}`;
}
