import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { findGitDir } from "../util/git-dir.ts";

/** git's two object formats: the hash its blob ids are made with. */
export type ObjectFormat = "sha1" | "sha256";

const known = new Map<string, ObjectFormat>();

/**
 * The object format of the repository `dir` is in, read from its config file (no git call:
 * this runs on every check). sha1 when there is no repository or its config cannot be read:
 * git's default.
 */
export function objectFormat(dir: string): ObjectFormat {
  let format = known.get(dir);
  if (format === undefined) {
    format = /^\s*objectformat\s*=\s*sha256\s*$/im.test(repoConfigText(dir)) ? "sha256" : "sha1";
    known.set(dir, format);
  }
  return format;
}

/**
 * The folder a repository's own config and `info/` live in: a linked worktree's is the common
 * folder its `commondir` names. Null outside git.
 */
export function commonGitDir(dir: string): string | null {
  const gitDir = findGitDir(dir);
  if (gitDir === null) return null;
  const common = readText(join(gitDir, "commondir"))?.trim();
  return common === undefined || common === "" ? gitDir : resolve(gitDir, common);
}

/** The text of the config file of the repository `dir` is in; "" when none can be read. */
export function repoConfigText(dir: string): string {
  const common = commonGitDir(dir);
  return common === null ? "" : (readText(join(common, "config")) ?? "");
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
