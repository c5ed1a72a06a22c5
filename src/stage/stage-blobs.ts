import { type GitEnv, gitFailure, runGit } from "../match/git.ts";
import { hasEscapedBytes } from "../util/path-bytes.ts";
import { join, mkdirSync, rmSync, writeFileSync } from "./byte-name-fs.ts";
import type { FileBlob } from "./file-blob.ts";
import { CHUNK, gitOnPaths } from "./git-paths.ts";
import type { IndexBits } from "./index-bits.ts";
import { stagedEntries, stagedMeanwhile } from "./index-changed.ts";
import { indexFileOf } from "./index-file.ts";
import { withIndexLock } from "./index-lock.ts";
import { waitingOwnIndex } from "./partial-commit.ts";

export interface BlobToStage {
  readonly path: string;
  readonly blob: FileBlob;
}

export interface Staged {
  readonly staged: readonly string[];
  /** Staged by someone else meanwhile: left as they staged it. */
  readonly restaged: readonly string[];
  readonly ownIndexLags: readonly string[];
}

interface StageOptions {
  readonly scratch: string;
  readonly expected: ReadonlyMap<string, string>;
  readonly bits: ReadonlyMap<string, IndexBits>;
}

/**
 * Stage exactly these bytes, never what is on disk by then (a person may be saving): each
 * goes to git's objects through its filters, then, under the index lock, into its entry if
 * the index still holds what the callbacks ran on. A person's index bits stay set.
 */
export function stageBlobs(
  top: string,
  gitDir: string,
  entries: readonly BlobToStage[],
  options: StageOptions,
): Staged {
  if (entries.length === 0) return { staged: [], restaged: [], ownIndexLags: [] };
  mkdirSync(options.scratch, { recursive: true });
  try {
    return stageIn(top, gitDir, entries, options);
  } finally {
    rmSync(options.scratch, { recursive: true, force: true });
  }
}

function stageIn(
  top: string,
  gitDir: string,
  entries: readonly BlobToStage[],
  options: StageOptions,
): Staged {
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
  const action = "stage the files callbacks fixed";
  const mine = new Map(
    infos.map((e) => {
      const [mode, id] = e.info.split(",");
      return [e.path, `${mode} ${id}`];
    }),
  );
  const { staged, restaged } = withIndexLock(
    indexFileOf(top, gitDir),
    (copy) => {
      const env = { GIT_INDEX_FILE: copy };
      // anything staged by someone else since the check began: not overwritten, and said
      const moved = new Set(stagedMeanwhile(stagedEntries(top, env), options.expected, mine));
      const ours = infos.filter((e) => !moved.has(e.path));
      cacheInfo(top, ours, env, action);
      const rest = byName.filter((p) => !moved.has(p));
      if (rest.length > 0) gitOnPaths(top, ["add"], rest, action, env);
      const done = [...ours.map((e) => e.path), ...rest];
      keepBits(top, done, options.bits, env);
      return { staged: done, restaged: [...moved] };
    },
    action,
  );
  return { staged, restaged, ownIndexLags: inOwnIndex(top, infos, staged, options.bits) };
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

/** In `git commit <paths>`, git's own waiting index gets the same entries. Returns the paths it could not take. */
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
