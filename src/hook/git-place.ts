import { lstatSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { type GitEnv, runGit } from "../match/git.ts";

/**
 * Where a repository's git data and work tree are, pinned for cpilot's git calls: the
 * agent's shell can set `core.worktree` (git would then compare another folder),
 * `core.bare` (git would refuse to look at all) or rewrite a `.git` file to name another
 * repository whose index says nothing changed. Given as GIT_DIR and GIT_WORK_TREE, which
 * override all three.
 */
export interface GitPlace {
  /** The repository's git folder, absolute. */
  readonly gitDir: string;
  /** The work tree's top folder, absolute. */
  readonly top: string;
}

/**
 * The repository `dir` is in, found as git finds it (the nearest folder up holding a `.git`
 * entry), or null when there is none, git cannot read it, or the person's own environment
 * names the repository already (GIT_DIR), which is then left to git.
 */
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

/** The environment that pins git to `place` (none: git finds the repository itself). */
export function placeEnv(place: GitPlace | null | undefined): GitEnv {
  return place ? { GIT_DIR: place.gitDir, GIT_WORK_TREE: place.top } : {};
}

/** A repository inside the project's (nested, or a submodule), pinned to its own folder. */
export function innerPlace(inner: string): GitEnv {
  return placeEnv({ gitDir: join(inner, ".git"), top: inner });
}

/** A place read back from the turn's record, or undefined when it is not one. */
export function validPlace(value: unknown): GitPlace | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { gitDir, top } = value as Record<string, unknown>;
  if (typeof gitDir !== "string" || typeof top !== "string") return undefined;
  if (!isAbsolute(gitDir) || !isAbsolute(top)) return undefined;
  return { gitDir, top };
}
