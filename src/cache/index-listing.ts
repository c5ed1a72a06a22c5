import { lstatSync } from "node:fs";
import { fsPath } from "../util/path-bytes.ts";
import { STATE_PREFIX } from "../util/state-layout.ts";

export const LISTING = ["ls-files", "-s", "-v", "-z"];

export interface IndexListing {
  /** Every entry once (an unmerged path: its last stage's), in git's order. */
  readonly paths: readonly string[];
  /** The blob id of each of `paths`, at the same index. */
  readonly blobs: readonly string[];
  /** Blob id by path, made when first asked: most callers need the lists only. */
  readonly ids: Map<string, string>;
  /** In git's order, once each: no submodule, nothing of `.cpilot/`. */
  readonly files: readonly string[];
  /** Skip-worktree, assume-unchanged or unmerged: `git status` cannot say whether they are there, so the disk is asked. */
  readonly unsure: ReadonlySet<string>;
  /** The mode of each entry that is not a plain file (100644): executable, symlink. */
  readonly modes: ReadonlyMap<string, string>;
}

/** A submodule's entry: a commit, not a file. */
const GITLINK = "160000";
/** A plain file's mode, most entries': the others are kept in {@link IndexListing.modes}. */
const PLAIN = "100644";

const SPACE = 0x20;
const TAB = 0x09;
const USUAL = 0x48; // "H"

/**
 * Parse `git ls-files -s -v -z`: "<tag> <mode> <id> <stage>\t<path>"; tag "H" as usual, "S"
 * skip-worktree, "M" unmerged, lowercase for assume-unchanged. git writes one-letter tags and
 * six-digit modes, so the fields are found at fixed places; an entry laid out otherwise is
 * split at its spaces.
 */
export function parseIndexListing(stdout: string): IndexListing {
  const paths: string[] = [];
  const blobs: string[] = [];
  const unsure = new Set<string>();
  const modes = new Map<string, string>();
  let left: Set<number> | null = null;
  let at = 0;
  while (at < stdout.length) {
    let end = stdout.indexOf("\0", at);
    if (end === -1) end = stdout.length;
    const tab = stdout.indexOf("\t", at);
    const fields = tab !== -1 && tab < end ? entryFields(stdout, at, tab) : null;
    if (fields !== null) {
      const path = stdout.slice(tab + 1, end);
      const id = stdout.slice(fields.id, tab - 2);
      // an unmerged path is listed once per stage, one after the other
      if (paths.length > 0 && paths[paths.length - 1] === path) blobs[blobs.length - 1] = id;
      else {
        const gitlink =
          fields.id - 1 - fields.mode === GITLINK.length && stdout.startsWith(GITLINK, fields.mode);
        if (gitlink || path.startsWith(STATE_PREFIX)) {
          left ??= new Set();
          left.add(paths.length);
        } else {
          if (stdout.charCodeAt(at) !== USUAL) unsure.add(path);
          if (!stdout.startsWith(PLAIN, fields.mode)) {
            const mode = stdout.slice(fields.mode, fields.id - 1).replace(/^0+(?=\d{6})/, "");
            if (mode !== PLAIN) modes.set(path, mode);
          }
        }
        paths.push(path);
        blobs.push(id);
      }
    }
    at = end + 1;
  }
  const kept = left;
  const files = kept === null ? paths : paths.filter((_, i) => !kept.has(i));
  let ids: Map<string, string> | undefined;
  return {
    paths,
    blobs,
    get ids() {
      if (ids === undefined) {
        ids = new Map();
        for (let i = 0; i < paths.length; i++) ids.set(paths[i] as string, blobs[i] as string);
      }
      return ids;
    },
    files,
    unsure,
    modes,
  };
}

/** Where an entry's mode and id begin; null when it is not "<tag> <mode> <id> <stage>\t". */
function entryFields(text: string, at: number, tab: number): { mode: number; id: number } | null {
  const width = tab - 2 - (at + 9);
  if (
    (width === 40 || width === 64) &&
    text.charCodeAt(at + 1) === SPACE &&
    text.charCodeAt(at + 8) === SPACE &&
    text.charCodeAt(tab - 2) === SPACE &&
    text.charCodeAt(tab) === TAB
  )
    return { mode: at + 2, id: at + 9 };
  const mode = text.indexOf(" ", at) + 1;
  const id = text.indexOf(" ", mode) + 1;
  const stage = text.indexOf(" ", id);
  return mode > 0 && id > mode && stage > id && stage === tab - 2 ? { mode, id } : null;
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
