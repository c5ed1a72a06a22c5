import type { FileChange } from "../engine/batch.ts";
import { gitFailure, runGitAsync, splitNul } from "../match/_git.ts";
import { parseNameStatus, toChanges } from "../match/_name-status.ts";

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
  /** Untracked files that are not ignored; empty when not asked for. */
  readonly untracked: string[];
}

const DIFF = ["--name-status", "-z", "--no-renames", "--no-ext-diff", "--ignore-submodules=all"];

/**
 * Ask git, in three processes that overlap (two cores): what is staged, what differs in
 * the working tree, and (unless `untracked` is false) which files are untracked. The
 * working-tree diff is porcelain `git diff`, which compares content: a file that was only
 * touched is not a change and does not set the dance going. `stateDir` (cpilot's own
 * `.cpilot/`, as seen from the top) is never set aside: runs write their logs there.
 */
export async function surveyTree(
  top: string,
  options: { untracked: boolean; stateDir: string },
): Promise<Survey> {
  const stagedArgs = ["diff", "--cached", ...DIFF];
  const unstagedArgs = ["diff", ...DIFF];
  const othersArgs = ["ls-files", "-z", "--others", "--exclude-standard"];
  const [staged, unstaged, others] = await Promise.all([
    runGitAsync(top, stagedArgs),
    runGitAsync(top, unstagedArgs),
    options.untracked ? runGitAsync(top, othersArgs) : null,
  ]);
  if (!staged.ok) throw gitFailure(top, stagedArgs, staged, "list staged files");
  if (!unstaged.ok) throw gitFailure(top, unstagedArgs, unstaged, "list unstaged changes");
  if (others && !others.ok) throw gitFailure(top, othersArgs, others, "list untracked files");
  const mine = (path: string): boolean =>
    path === options.stateDir || path.startsWith(`${options.stateDir}/`);
  const changes: UnstagedChange[] = [];
  for (const c of toChanges(parseNameStatus(unstaged.stdout))) {
    if (!mine(c.path)) changes.push({ path: c.path, deleted: c.kind === "deleted" });
  }
  return {
    staged: toChanges(parseNameStatus(staged.stdout)).filter((c) => !mine(c.path)),
    unstaged: changes,
    // a nested repository is listed as its folder, with a trailing slash: it stays
    untracked: others ? splitNul(others.stdout).filter((p) => !p.endsWith("/") && !mine(p)) : [],
  };
}
