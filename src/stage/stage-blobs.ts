import { resolve } from "node:path";
import { type GitEnv, gitFailure, runGit, splitNul } from "../match/git.ts";
import { hasEscapedBytes } from "../util/path-bytes.ts";
import type { FileBlob } from "./file-blob.ts";
import { CHUNK, gitOnPaths } from "./git-paths.ts";
import type { IndexBits } from "./index-bits.ts";
import { withIndexLock } from "./index-lock.ts";
import { join, mkdirSync, writeFileSync } from "./kept-fs.ts";
import { waitingOwnIndex } from "./partial-commit.ts";

/** A content to stage at a path: the bytes a callback left, as read when judged. */
export interface BlobToStage {
  readonly path: string;
  readonly blob: FileBlob;
}

/** What staging did. */
export interface Staged {
  readonly staged: readonly string[];
  /** Staged again by someone else while the check ran: left as they staged it. */
  readonly restaged: readonly string[];
  /** Staged in a partial commit's index, not in git's own waiting one (see partial-commit.ts). */
  readonly ownIndexLags: readonly string[];
}

/** The index git reads for `top`: GIT_INDEX_FILE (as a commit's hook gets it), else its own. */
export function indexFileOf(top: string, gitDir: string, env = process.env): string {
  return env.GIT_INDEX_FILE ? resolve(top, env.GIT_INDEX_FILE) : join(gitDir, "index");
}

/**
 * Stage exactly these bytes, never what is on disk by then (a person may be saving the
 * file as this runs): each is written to git's objects through its filters (as `git add`
 * would, `--path` naming the attributes), then, under the index lock, entered for its
 * path, provided the index still holds there what the callbacks ran on (`expected`,
 * "<mode> <id>"). The bits a person set (assume-unchanged, skip-worktree) stay set.
 */
export function stageBlobs(
  top: string,
  gitDir: string,
  entries: readonly BlobToStage[],
  options: {
    scratch: string;
    expected: ReadonlyMap<string, string>;
    bits: ReadonlyMap<string, IndexBits>;
  },
): Staged {
  if (entries.length === 0) return { staged: [], restaged: [], ownIndexLags: [] };
  mkdirSync(options.scratch, { recursive: true });
  const infos: { path: string; info: string }[] = [];
  const byName: string[] = []; // names git cannot be given as an argument: staged from disk
  entries.forEach(({ path, blob }, i) => {
    if (hasEscapedBytes(path)) {
      byName.push(path);
      return;
    }
    const file = join(options.scratch, String(i));
    writeFileSync(file, blob.bytes as Uint8Array);
    const args =
      blob.mode === "120000"
        ? ["hash-object", "-w", "--no-filters", "--", file]
        : ["hash-object", "-w", `--path=${path}`, "--", file];
    const r = runGit(top, args);
    if (!r.ok) throw gitFailure(top, args, r, `store the fixed "${path}"`);
    infos.push({ path, info: `${blob.mode},${r.stdout.trim()},${path}` });
  });
  const paths = entries.map((e) => e.path);
  const action = "stage the files callbacks fixed";
  const { staged, restaged } = withIndexLock(
    indexFileOf(top, gitDir),
    (copy) => {
      const env = { GIT_INDEX_FILE: copy };
      const now = indexed(top, paths, env);
      const moved = new Set(paths.filter((p) => now.get(p) !== options.expected.get(p)));
      const mine = infos.filter((e) => !moved.has(e.path));
      cacheInfo(top, mine, env, action);
      const rest = byName.filter((p) => !moved.has(p));
      if (rest.length > 0) gitOnPaths(top, ["add"], rest, action, env);
      const done = [...mine.map((e) => e.path), ...rest];
      keepBits(top, done, options.bits, env);
      return { staged: done, restaged: [...moved] };
    },
    action,
  );
  return { staged, restaged, ownIndexLags: inOwnIndex(top, infos, staged, options.bits) };
}

/** `<mode> <id>` of each of `paths` in the index (`env`'s), stage 0. */
function indexed(top: string, paths: readonly string[], env: GitEnv): Map<string, string> {
  const out = new Map<string, string>();
  const list = gitOnPaths(top, ["ls-files", "-s", "-z"], paths, "read the index", env);
  for (const record of splitNul(list)) {
    const tab = record.indexOf("\t");
    const [mode, id, stage] = record.slice(0, tab).split(" ");
    if (stage === "0") out.set(record.slice(tab + 1), `${mode} ${id}`);
  }
  return out;
}

function cacheInfo(
  top: string,
  infos: readonly { info: string }[],
  env: GitEnv,
  action: string,
): void {
  for (let i = 0; i < infos.length; i += CHUNK) {
    const args = [
      "update-index",
      ...infos.slice(i, i + CHUNK).flatMap((e) => ["--cacheinfo", e.info]),
    ];
    const r = runGit(top, args, env);
    if (!r.ok) throw gitFailure(top, args, r, action);
  }
}

/** Set again the bits a person had on `paths` (an entry written anew has none). */
function keepBits(
  top: string,
  paths: readonly string[],
  bits: ReadonlyMap<string, IndexBits>,
  env: GitEnv,
): void {
  const assume = paths.filter((p) => bits.get(p)?.assumeUnchanged);
  const skip = paths.filter((p) => bits.get(p)?.skipWorktree);
  const what = "keep the index bits of the fixed files";
  if (assume.length > 0) gitOnPaths(top, ["update-index", "--assume-unchanged"], assume, what, env);
  if (skip.length > 0) gitOnPaths(top, ["update-index", "--skip-worktree"], skip, what, env);
}

/**
 * In `git commit <paths>` the same entries go to git's own index waiting beside the
 * commit's (see partial-commit.ts). Returns the paths it could not take.
 */
function inOwnIndex(
  top: string,
  infos: readonly { path: string; info: string }[],
  staged: readonly string[],
  bits: ReadonlyMap<string, IndexBits>,
): readonly string[] {
  const own = waitingOwnIndex(top);
  if (own === null || staged.length === 0) return [];
  const done = new Set(staged);
  const mine = infos.filter((e) => done.has(e.path));
  const byName = staged.filter((p) => !mine.some((e) => e.path === p));
  const env = { GIT_INDEX_FILE: own };
  try {
    cacheInfo(top, mine, env, "stage the fixed files in git's own index");
    if (byName.length > 0) gitOnPaths(top, ["add"], byName, "stage the fixed files", env);
    keepBits(top, staged, bits, env);
    return [];
  } catch {
    return staged;
  }
}
