import { lstatSync } from "node:fs";
import { fsPath } from "../util/path-bytes.ts";
import { STATE_PREFIX } from "../util/state-layout.ts";

/** `git ls-files` with each entry's tag, mode, blob id and stage: one line per index entry. */
export const LISTING = ["ls-files", "-s", "-v", "-z"];

/** What one `git ls-files -s -v -z` says of the index. */
export interface IndexListing {
  /** Every entry's blob id by root-relative path (an unmerged path: its last stage's). */
  readonly ids: Map<string, string>;
  /** The files the index holds, in git's order, once each: no submodule, nothing of `.cpilot/`. */
  readonly files: readonly string[];
  /**
   * Files git itself does not look at on disk (skip-worktree, assume-unchanged) or that are
   * unmerged: `git status` cannot say whether they are there, so the disk is asked.
   */
  readonly unsure: ReadonlySet<string>;
}

/** A submodule's entry: a commit, not a file. */
const GITLINK = "160000";

/**
 * Parse `git ls-files -s -v -z`: "<tag> <mode> <id> <stage>\t<path>" per entry, where the
 * tag is "H" for an entry git checks on disk as usual, "S" skip-worktree, "M" unmerged, and
 * a lowercase letter for assume-unchanged. Positions are found with indexOf rather than
 * split: at 20,000 entries the arrays a split makes were most of the parse.
 */
export function parseIndexListing(stdout: string): IndexListing {
  const ids = new Map<string, string>();
  const files: string[] = [];
  const unsure = new Set<string>();
  let at = 0;
  let last = "";
  while (at < stdout.length) {
    let end = stdout.indexOf("\0", at);
    if (end === -1) end = stdout.length;
    const tab = stdout.indexOf("\t", at);
    const mode = stdout.indexOf(" ", at) + 1;
    const id = stdout.indexOf(" ", mode) + 1;
    const stage = stdout.indexOf(" ", id);
    if (tab !== -1 && tab < end && mode > 0 && id > mode && stage > id && stage < tab) {
      const path = stdout.slice(tab + 1, end);
      ids.set(path, stdout.slice(id, stage));
      // an unmerged path is listed once per stage, one after the other
      // compared in place: a slice per entry was a fifth of the parse
      const gitlink = id - 1 - mode === GITLINK.length && stdout.startsWith(GITLINK, mode);
      if (path !== last && !gitlink && !path.startsWith(STATE_PREFIX)) {
        files.push(path);
        if (stdout[at] !== "H") unsure.add(path);
      }
      last = path;
    }
    at = end + 1;
  }
  return { ids, files, unsure };
}

/**
 * The listing's files that are on disk now: all but those `gone` names (`git status`
 * found them deleted, or a folder now), the unsure ones asked of the disk themselves. A
 * symlink counts as a file, as git tracks it.
 */
export function filesOnDisk(
  root: string,
  listing: IndexListing,
  gone: ReadonlySet<string>,
): string[] {
  if (gone.size === 0 && listing.unsure.size === 0) return [...listing.files];
  return listing.files.filter((path) =>
    listing.unsure.has(path) ? isFile(root, path) : !gone.has(path),
  );
}

function isFile(root: string, path: string): boolean {
  try {
    return !lstatSync(fsPath(`${root}/${path}`)).isDirectory();
  } catch {
    return false;
  }
}
