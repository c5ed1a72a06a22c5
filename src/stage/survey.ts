import { closeSync, openSync, readSync } from "node:fs";
import { resolve } from "node:path";
import { type GitResult, gitFailure, runGitAsync, splitNul } from "../match/git.ts";
import type { FileChange } from "../model/batch.ts";
import { hasEscapedBytes } from "../util/path-bytes.ts";
import { CHUNK } from "./git-paths.ts";
import { type IndexBits, readIndexBits } from "./index-bits.ts";

/** A tracked file whose working copy is not what the index holds. */
export interface UnstagedChange {
  /** Relative to the work tree's top, `/` separators. */
  readonly path: string;
  /** Deleted from the working tree but still in the index. */
  readonly deleted: boolean;
}

/** What `check --staged` finds before it runs anything. */
export interface Survey {
  /** What the commit records: index against HEAD, paths from the top. */
  readonly staged: FileChange[];
  /** What differs between the index and the working tree: set aside while callbacks run. */
  readonly unstaged: UnstagedChange[];
  /** Untracked files that are not ignored (and intent-to-add ones); see {@link SurveyStart.result}. */
  readonly untracked: string[];
  /** What the index holds for each staged path: "<mode> <blob id>" (a deletion: zeros). */
  readonly indexed: Map<string, string>;
  /**
   * Staged files with assume-unchanged or skip-worktree set: git does not compare their
   * working copy, so it is not among `unstaged` whatever it holds.
   */
  readonly bits: Map<string, IndexBits>;
  /** HEAD's commit as git's pass saw it; null before the first commit. */
  readonly head: string | null;
}

/** A survey under way: its git processes started, their answers not read yet. */
export interface SurveyStart {
  /**
   * The survey; with `untracked` false, without the untracked files that are not ignored
   * (intent-to-add files stay: they are not in the commit either). Throws a CpilotError
   * when git fails.
   */
  result(options: { untracked: boolean }): Promise<Survey>;
}

/**
 * Index entries from which the untracked walk runs beside the tracked files' check rather
 * than after it. `git status` stats every tracked file (on threads), then walks every
 * folder for untracked files on one thread. Split in two processes on two cores, a large
 * repository's survey ends sooner for a little more CPU; in a small one the second process
 * costs what it saves, so small repositories keep one.
 */
export const SPLIT_FROM_ENTRIES = 4000;

// --branch: HEAD's commit in the same answer, for the content key of what is checked
const STATUS = [
  "status",
  "--porcelain=v2",
  "--branch",
  "-z",
  "--no-renames",
  "--ignore-submodules=all",
];
const OTHERS = ["ls-files", "-z", "--others", "--exclude-standard"];

/**
 * Start asking git, in `top`: what is staged (index against HEAD), which tracked files
 * differ in the working tree, and, unless `untracked` is false, which files are untracked
 * and not ignored. One `git status --porcelain=v2` (one pass over the tree with git's
 * threaded stat), or with `split` (a large repository: see {@link SPLIT_FROM_ENTRIES}) `git
 * status --untracked-files=no` and `git ls-files --others` at once, which list the same files.
 * Content is compared, not timestamps: a file that was only touched is no change and does
 * not set the dance going. `stateDir` (cpilot's own `.cpilot/`, as seen from the top) is
 * never set aside: runs write their logs there. Submodules are left alone.
 */
export function startSurvey(
  top: string,
  options: { untracked: boolean; stateDir: string; split?: boolean; indexFile?: string },
): SurveyStart {
  const split = options.untracked && options.split === true;
  const untrackedFlag =
    options.untracked && !split ? "--untracked-files=all" : "--untracked-files=no";
  const statusArgs = [...STATUS, untrackedFlag];
  const status = settled(runGitAsync(top, statusArgs));
  const others = split ? settled(runGitAsync(top, OTHERS)) : null;
  // The index's bits are read while git runs, as if its ids were SHA-1 (most repositories);
  // a SHA-256 repository's survey shows longer ids, and the index is read again for them.
  const sha1Bits = options.indexFile ? readIndexBits(options.indexFile, 20) : null;
  const parsed = status.then((r) => {
    if (!r.ok) return null;
    const survey = parseStatus(r.stdout, options.stateDir, options.untracked);
    const long = sha256Ids(survey.indexed);
    const read = !options.indexFile ? null : long ? readIndexBits(options.indexFile, 32) : sha1Bits;
    if (read !== null) {
      keepStaged(read, survey);
      return { survey, bits: Promise.resolve(NONE) };
    }
    return { survey, bits: settled(askBits(top, survey.staged)) };
  });
  parsed.catch(() => {});
  return {
    async result({ untracked }) {
      const r = await status;
      if (!r.ok) throw gitFailure(top, statusArgs, r, "list staged and unstaged changes");
      const early = (await parsed) as { survey: Survey; bits: Promise<GitResult> };
      const survey = early.survey;
      if (options.untracked && !untracked) {
        // without the untracked files, but with the intent-to-add ones
        survey.untracked.splice(
          0,
          Infinity,
          ...parseStatus(r.stdout, options.stateDir, false).untracked,
        );
      }
      const b = await early.bits;
      if (!b.ok) throw gitFailure(top, BITS, b, "read the index bits of the staged files");
      readBits(b.stdout, survey);
      if (others === null || !untracked) return survey;
      const o = await others;
      if (!o.ok) throw gitFailure(top, OTHERS, o, "list untracked files");
      const mine = ownedBy(options.stateDir);
      for (const path of splitNul(o.stdout)) {
        // a nested repository is listed as its folder, with a trailing slash: it stays
        if (!path.endsWith("/") && !mine(path)) survey.untracked.push(path);
      }
      return survey;
    },
  };
}

const BITS = ["ls-files", "-v", "-z"];
const NONE: GitResult = { ok: true, stdout: "", stderr: "", missing: false, timedOut: false };

/** The bits of the staged files (not deleted) among `all`, into `survey.bits`. */
function keepStaged(all: ReadonlyMap<string, IndexBits>, survey: Survey): void {
  if (all.size === 0) return;
  for (const c of survey.staged) {
    const bits = all.get(c.path);
    if (bits !== undefined && c.kind !== "deleted") survey.bits.set(c.path, bits);
  }
}

/**
 * Whether the index's entries ("<mode> <id>", see {@link Survey.indexed}) name SHA-256 ids
 * (64 hex digits; SHA-1's have 40): a SHA-256 repository, whose blob ids are made so too.
 */
export function isSha256Entry(entry: string): boolean {
  return entry.length - entry.indexOf(" ") - 1 === 64;
}

/** Whether any of the staged entries names a SHA-256 id (see {@link isSha256Entry}). */
export function sha256Ids(indexed: ReadonlyMap<string, string>): boolean {
  for (const entry of indexed.values()) if (isSha256Entry(entry)) return true;
  return false;
}

/** `git ls-files -v` of the staged files (all files when they are many or odd names). */
function askBits(top: string, staged: readonly FileChange[]): Promise<GitResult> {
  const paths = staged.filter((c) => c.kind !== "deleted").map((c) => c.path);
  if (paths.length === 0) return Promise.resolve(NONE);
  const all = paths.length > CHUNK || paths.some(hasEscapedBytes);
  return runGitAsync(top, all ? BITS : [...BITS, "--", ...paths]);
}

/**
 * `git ls-files -v` tags: lower case for assume-unchanged, S (s) for skip-worktree. Only
 * staged files count: the others are not in the commit's changes.
 */
function readBits(stdout: string, survey: Survey): void {
  const staged = new Set(survey.staged.filter((c) => c.kind !== "deleted").map((c) => c.path));
  for (const record of splitNul(stdout)) {
    const tag = record[0] as string;
    const path = record.slice(2);
    if (!staged.has(path)) continue;
    const assumeUnchanged = tag !== tag.toUpperCase();
    const skipWorktree = tag === "S" || tag === "s";
    if (assumeUnchanged || skipWorktree) survey.bits.set(path, { assumeUnchanged, skipWorktree });
  }
}

/** {@link startSurvey} and its result at once. */
export function surveyTree(
  top: string,
  options: { untracked: boolean; stateDir: string; split?: boolean },
): Promise<Survey> {
  return startSurvey(top, options).result({ untracked: options.untracked });
}

/** A promise the caller may not await for a while: no unhandled rejection meanwhile. */
function settled(p: Promise<GitResult>): Promise<GitResult> {
  p.catch(() => {});
  return p;
}

const ownedBy =
  (stateDir: string) =>
  (path: string): boolean =>
    path === stateDir || path.startsWith(`${stateDir}/`);

/** `git status --porcelain=v2 -z` records; untracked ones ("?") only when `untracked`. */
function parseStatus(stdout: string, stateDir: string, untracked: boolean): Survey {
  const mine = ownedBy(stateDir);
  const staged: FileChange[] = [];
  const unstaged: UnstagedChange[] = [];
  const others: string[] = [];
  const indexed = new Map<string, string>();
  let head: string | null = null;
  for (const record of splitNul(stdout)) {
    const type = record[0];
    if (record.startsWith("# branch.oid ")) {
      const oid = record.slice("# branch.oid ".length);
      head = /^[0-9a-f]{40,64}$/.test(oid) ? oid : null;
      continue;
    }
    if (type === "?") {
      const path = record.slice(2);
      // a nested repository is listed as its folder, with a trailing slash: it stays
      if (untracked && !path.endsWith("/") && !mine(path)) others.push(path);
      continue;
    }
    // "1 XY sub mH mI mW hH hI path" ("u" for unmerged has more fields, and no commit has one)
    if (type !== "1") continue;
    const path = fieldsAfter(record, 8);
    if (path === null || mine(path)) continue;
    const x = record[2];
    const y = record[3];
    if (x !== ".") {
      staged.push({ path, kind: x === "A" ? "created" : x === "D" ? "deleted" : "modified" });
      // "1 XY sub mH mI mW hH hI path"
      const f = record.split(" ", 8);
      indexed.set(path, `${f[4]} ${f[7]}`);
    }
    // `git add -N` (intent to add): not in the commit, so set aside as an untracked file
    if (y === "A" && x === ".") others.push(path);
    else if (y !== ".") unstaged.push({ path, deleted: y === "D" });
  }
  return { staged, unstaged, untracked: others, indexed, bits: new Map(), head };
}

/**
 * How many entries the index git will read in `top` holds (`gitDir`'s, or GIT_INDEX_FILE's
 * as a commit hook gets it), from its 12-byte header (signature, version, count); 0 when
 * it cannot be read (no index yet; a split index's own count is partial: both then take one
 * process, as a small repository does).
 */
export function indexEntries(
  top: string,
  gitDir: string,
  env: NodeJS.ProcessEnv = process.env,
): number {
  const path = env.GIT_INDEX_FILE ? resolve(top, env.GIT_INDEX_FILE) : resolve(gitDir, "index");
  let fd: number | null = null;
  try {
    fd = openSync(path, "r");
    const header = new Uint8Array(12);
    if (readSync(fd, header, 0, 12, 0) < 12) return 0;
    const view = new DataView(header.buffer);
    if (view.getUint32(0) !== 0x44495243) return 0; // "DIRC"
    return view.getUint32(8);
  } catch {
    return 0;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** The rest of `record` after `n` space-separated fields (a path may hold spaces). */
function fieldsAfter(record: string, n: number): string | null {
  let at = 0;
  for (let i = 0; i < n; i++) {
    at = record.indexOf(" ", at) + 1;
    if (at === 0) return null;
  }
  return record.slice(at);
}
