import { closeSync, openSync, readSync } from "node:fs";
import { resolve } from "node:path";
import { type GitResult, gitFailure, runGitAsync, splitNul } from "../match/git.ts";
import type { FileChange } from "../model/batch.ts";
import { hasEscapedBytes } from "../util/path-bytes.ts";
import { CHUNK } from "./git-paths.ts";
import { type IndexBits, readIndexBits } from "./index-bits.ts";

export interface UnstagedChange {
  readonly path: string;
  readonly deleted: boolean;
}

export interface Survey {
  readonly staged: FileChange[];
  /** Set aside while callbacks run. */
  readonly unstaged: UnstagedChange[];
  readonly untracked: string[];
  /** "<mode> <blob id>" per staged path (a deletion: zeros). */
  readonly indexed: Map<string, string>;
  /** git does not compare their working copy, so it is not among `unstaged` whatever it holds. */
  readonly bits: Map<string, IndexBits>;
  readonly head: string | null;
}

export interface SurveyStart {
  /** `untracked` false leaves out untracked files but not intent-to-add ones. Throws a CpilotError when git fails. */
  result(options: { untracked: boolean }): Promise<Survey>;
}

/** From this many index entries, the untracked walk runs in a second process beside the tracked check: sooner on two cores. */
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
 * Start asking git what is staged, which tracked files differ in the working tree and which
 * are untracked. Content is compared, not timestamps. `stateDir` is never set aside: runs
 * write their logs there. Submodules are left alone.
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
  // Read as if ids were SHA-1 while git runs; a SHA-256 repository's index is read again.
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

function keepStaged(all: ReadonlyMap<string, IndexBits>, survey: Survey): void {
  if (all.size === 0) return;
  for (const c of survey.staged) {
    const bits = all.get(c.path);
    if (bits !== undefined && c.kind !== "deleted") survey.bits.set(c.path, bits);
  }
}

/** SHA-256 ids have 64 hex digits, SHA-1's 40. */
export function isSha256Entry(entry: string): boolean {
  return entry.length - entry.indexOf(" ") - 1 === 64;
}

export function sha256Ids(indexed: ReadonlyMap<string, string>): boolean {
  for (const entry of indexed.values()) if (isSha256Entry(entry)) return true;
  return false;
}

function askBits(top: string, staged: readonly FileChange[]): Promise<GitResult> {
  const paths = staged.filter((c) => c.kind !== "deleted").map((c) => c.path);
  if (paths.length === 0) return Promise.resolve(NONE);
  const all = paths.length > CHUNK || paths.some(hasEscapedBytes);
  return runGitAsync(top, all ? BITS : [...BITS, "--", ...paths]);
}

/** Lower case for assume-unchanged, S (s) for skip-worktree; only staged files count. */
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

export function surveyTree(
  top: string,
  options: { untracked: boolean; stateDir: string; split?: boolean },
): Promise<Survey> {
  return startSurvey(top, options).result({ untracked: options.untracked });
}

/** No unhandled rejection while the caller has not awaited it yet. */
function settled(p: Promise<GitResult>): Promise<GitResult> {
  p.catch(() => {});
  return p;
}

const ownedBy =
  (stateDir: string) =>
  (path: string): boolean =>
    path === stateDir || path.startsWith(`${stateDir}/`);

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
    // "1 XY sub mH mI mW hH hI path" ("u", unmerged, has more fields and no commit has one)
    if (type !== "1") continue;
    const path = fieldsAfter(record, 8);
    if (path === null || mine(path)) continue;
    const x = record[2];
    const y = record[3];
    if (x !== ".") {
      staged.push({ path, kind: x === "A" ? "created" : x === "D" ? "deleted" : "modified" });
      const f = record.split(" ", 8);
      indexed.set(path, `${f[4]} ${f[7]}`);
    }
    // `git add -N`: not in the commit, so set aside as an untracked file
    if (y === "A" && x === ".") others.push(path);
    else if (y !== ".") unstaged.push({ path, deleted: y === "D" });
  }
  return { staged, unstaged, untracked: others, indexed, bits: new Map(), head };
}

/** Entries in the index git will read, from its header; 0 when unreadable (then one process, as for a small repository). */
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

function fieldsAfter(record: string, n: number): string | null {
  let at = 0;
  for (let i = 0; i < n; i++) {
    at = record.indexOf(" ", at) + 1;
    if (at === 0) return null;
  }
  return record.slice(at);
}
