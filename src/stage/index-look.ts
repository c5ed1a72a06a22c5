import { TOOL_CONFIGS } from "../cache/tool-configs.ts";
import { runGitAsync, splitNul } from "../match/git.ts";
import type { FileChange } from "../model/batch.ts";
import { headCommit } from "./head-commit.ts";
import { readIndexBits } from "./index-bits.ts";
import { indexStamp, STAGED_AGAINST } from "./index-changed.ts";

/** What the index stages against HEAD, read without looking at the working tree. */
export interface IndexLook {
  readonly head: string;
  readonly staged: FileChange[];
  /** "<mode> <blob id>" per staged path (a deletion: zeros), as the survey's. */
  readonly indexed: Map<string, string>;
  /** The blob id of every tool config the index holds (see TOOL_CONFIGS), by path. */
  readonly configs: ReadonlyMap<string, string>;
}

const WANTED: ReadonlySet<string> = new Set([...TOOL_CONFIGS, ".gitmodules"]);

const KINDS: Readonly<Record<string, FileChange["kind"]>> = {
  A: "created",
  D: "deleted",
  M: "modified",
  T: "modified",
};

/**
 * Start reading what is staged, from HEAD's commit and the index alone: far cheaper than
 * git's pass over the tree, and all a check needs whose every result is replayed. Null when
 * it cannot vouch for the answer (no commit yet, an unmerged path, an index bit on a staged
 * file, git failing): then the tree is surveyed as always. `stateDir` is left out.
 */
export async function startIndexLook(
  top: string,
  gitDir: string,
  options: { stateDir: string; indexFile: string },
): Promise<IndexLook | null> {
  const head = headCommit(gitDir);
  if (head === null) return null;
  // A write of the index between this stamp and git's answer would make git's answer and
  // the file read below two moments: then the tree is surveyed.
  const stamp = indexStamp(options.indexFile);
  // against the id just read, not "HEAD": the answer and its commit are one moment
  const asked = runGitAsync(top, [...STAGED_AGAINST, head]);
  // read while git runs
  const configs = new Map<string, string>();
  const bits = readIndexBits(options.indexFile, head.length === 64 ? 32 : 20, {
    wanted: WANTED,
    ids: configs,
  });
  const r = await asked;
  if (!r.ok || stamp === null || indexStamp(options.indexFile) !== stamp) return null;
  // submodules: their content is not in the index's ids
  if (bits === null || configs.delete(".gitmodules")) return null;
  const mine = (p: string): boolean =>
    p === options.stateDir || p.startsWith(`${options.stateDir}/`);
  const staged: FileChange[] = [];
  const indexed = new Map<string, string>();
  const fields = splitNul(r.stdout);
  if (fields.length % 2 !== 0) return null;
  for (let i = 0; i < fields.length; i += 2) {
    // ":mH mI hH hI X" then the path
    const [, mode, , id, status] = (fields[i] as string).slice(1).split(" ");
    const kind = KINDS[status ?? ""];
    const path = fields[i + 1] as string;
    if (kind === undefined || mode === undefined || id === undefined) return null;
    if (mine(path)) continue;
    staged.push({ path, kind });
    indexed.set(path, `${mode} ${id}`);
  }
  for (const c of staged) if (c.kind !== "deleted" && bits.has(c.path)) return null;
  return { head, staged, indexed, configs };
}
