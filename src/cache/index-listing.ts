import { lstatSync } from "node:fs";
import { fsPath } from "../util/path-bytes.ts";
import { STATE_PREFIX } from "../util/state-layout.ts";

export const LISTING = ["ls-files", "-s", "-v", "-z"];

export interface IndexListing {
  /** Blob id by path (an unmerged path: its last stage's). */
  readonly ids: Map<string, string>;
  /** In git's order, once each: no submodule, nothing of `.cpilot/`. */
  readonly files: readonly string[];
  /** Skip-worktree, assume-unchanged or unmerged: `git status` cannot say whether they are there, so the disk is asked. */
  readonly unsure: ReadonlySet<string>;
}

/** A submodule's entry: a commit, not a file. */
const GITLINK = "160000";

/**
 * Parse `git ls-files -s -v -z`: "<tag> <mode> <id> <stage>\t<path>"; tag "H" as usual, "S"
 * skip-worktree, "M" unmerged, lowercase for assume-unchanged.
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

/** The listing's files on disk now: all but `gone`, the unsure ones asked of the disk. A symlink counts, as git tracks it. */
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
