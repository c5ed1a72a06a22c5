import { lstatSync } from "node:fs";
import { join } from "node:path";
import { fsPath } from "../util/path-bytes.ts";
import { repoConfigText } from "./object-format.ts";

/**
 * What a key adds to a file's content id for its mode: "" for a plain file (most files, whose
 * keys stay as they were), "x" executable, "l" a symlink, git's mode itself for any other.
 */
export function modeTag(gitMode: string | undefined): string {
  // a deleted entry has no mode: as a file not there on disk
  if (gitMode === undefined || gitMode === "100644" || gitMode === "000000") return "";
  if (gitMode === "100755") return "x";
  if (gitMode === "120000") return "l";
  return gitMode;
}

/** The mode tag of a root-relative file as on disk now: git's own test, the owner's x bit. */
export function diskModeTag(root: string, path: string): string {
  try {
    const s = lstatSync(fsPath(join(root, path)));
    if (s.isSymbolicLink()) return "l";
    return s.isFile() && (s.mode & 0o100) !== 0 ? "x" : "";
  } catch {
    return "";
  }
}

const trusted = new Map<string, boolean>();

/**
 * Does `git status` compare the x bit of a file with its index entry? Not when the
 * repository's config says `core.fileMode = false`: the index's mode then says nothing of the
 * file's, and the disk is asked.
 */
export function indexModesTrusted(root: string): boolean {
  let known = trusted.get(root);
  if (known === undefined) {
    known = !/^\s*filemode\s*=\s*(false|no|off|0)\s*$/im.test(repoConfigText(root));
    trusted.set(root, known);
  }
  return known;
}
