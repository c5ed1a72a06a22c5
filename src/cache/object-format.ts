import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { findGitDir } from "../util/git-dir.ts";

/** git's two object formats: the hash its blob ids are made with. */
export type ObjectFormat = "sha1" | "sha256";

const known = new Map<string, ObjectFormat>();

/**
 * The object format of the repository `dir` is in, read from its config file (no git call:
 * this runs on every check). A linked worktree keeps its config in the common folder its
 * `commondir` names. sha1 when there is no repository or its config cannot be read: git's
 * default.
 */
export function objectFormat(dir: string): ObjectFormat {
  let format = known.get(dir);
  if (format === undefined) {
    format = readFormat(dir);
    known.set(dir, format);
  }
  return format;
}

function readFormat(dir: string): ObjectFormat {
  const gitDir = findGitDir(dir);
  if (gitDir === null) return "sha1";
  const common = readText(join(gitDir, "commondir"))?.trim();
  const configDir = common === undefined || common === "" ? gitDir : resolve(gitDir, common);
  const config = readText(join(configDir, "config")) ?? "";
  return /^\s*objectformat\s*=\s*sha256\s*$/im.test(config) ? "sha256" : "sha1";
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
