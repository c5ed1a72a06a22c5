import { lstatSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { type GitEnv, runGit } from "../match/git.ts";

/** Pinned as GIT_DIR and GIT_WORK_TREE: the shell can set `core.worktree` or rewrite `.git`. */
export interface GitPlace {
  readonly gitDir: string;
  readonly top: string;
}

/** null when there is none, git cannot read it, or the person's own GIT_DIR names it (left to git). */
export function findPlace(dir: string): GitPlace | null {
  if (process.env.GIT_DIR !== undefined || process.env.GIT_WORK_TREE !== undefined) return null;
  for (let top = dir; ; top = dirname(top)) {
    if (lstatSync(join(top, ".git"), { throwIfNoEntry: false }) !== undefined) {
      const r = runGit(dir, ["rev-parse", "--absolute-git-dir"], {
        GIT_DIR: join(top, ".git"),
        GIT_WORK_TREE: top,
      });
      const gitDir = r.stdout.replace(/\n$/, "");
      return r.ok && gitDir !== "" ? { gitDir, top } : null;
    }
    if (dirname(top) === top) return null;
  }
}

/** None: git finds the repository itself. */
export function placeEnv(place: GitPlace | null | undefined): GitEnv {
  return place ? { GIT_DIR: place.gitDir, GIT_WORK_TREE: place.top } : {};
}

export function innerPlace(inner: string): GitEnv {
  return placeEnv({ gitDir: join(inner, ".git"), top: inner });
}

/** undefined when the record's value is not one. */
export function validPlace(value: unknown): GitPlace | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { gitDir, top } = value as Record<string, unknown>;
  if (typeof gitDir !== "string" || typeof top !== "string") return undefined;
  if (!isAbsolute(gitDir) || !isAbsolute(top)) return undefined;
  return { gitDir, top };
}
