import { readFileSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";

/** git's two object formats: the hash its blob ids are made with. */
export type ObjectFormat = "sha1" | "sha256";

const known = new Map<string, ObjectFormat>();

/**
 * The object format of the repository `dir` is in, read from its config file (no git call:
 * this runs on every check). A linked worktree's `.git` file leads to its common folder.
 * sha1 when there is no repository or its config cannot be read: git's default.
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
  for (let top = dir; ; top = dirname(top)) {
    const gitDir = gitFolder(join(top, ".git"));
    if (gitDir !== undefined) {
      if (gitDir === null) return "sha1";
      const config = readText(join(commonFolder(gitDir), "config")) ?? "";
      return /^\s*objectformat\s*=\s*sha256\s*$/im.test(config) ? "sha256" : "sha1";
    }
    if (dirname(top) === top) return "sha1";
  }
}

/** The git folder a `.git` entry stands for: undefined when there is none, null when unreadable. */
function gitFolder(dotGit: string): string | null | undefined {
  const stat = statSync(dotGit, { throwIfNoEntry: false });
  if (stat === undefined) return undefined;
  if (stat.isDirectory()) return dotGit;
  const named = /^gitdir:\s*(.+?)\s*$/m.exec(readText(dotGit) ?? "")?.[1];
  if (named === undefined) return null;
  return isAbsolute(named) ? named : resolve(dirname(dotGit), named);
}

/** A linked worktree's git folder keeps its config in the common folder its `commondir` names. */
function commonFolder(gitDir: string): string {
  const common = readText(join(gitDir, "commondir"))?.trim();
  return common === undefined || common === "" ? gitDir : resolve(gitDir, common);
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}
