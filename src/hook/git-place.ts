import { lstatSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { type GitEnv, runGit, runGitBytes } from "../match/git.ts";

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

/**
 * What `.git` at the pinned top is (a folder and where it really is, a `gitdir:` file and
 * what it says, a link, nothing) and the pinned repository's `core.worktree` and
 * `core.bare`: another answer later means the repository was changed under cpilot.
 */
export function placeMark(place: GitPlace, seen?: readonly string[]): string {
  const dotGit = join(place.top, ".git");
  if (seen !== undefined) return [entryMark(dotGit), ...seen].join("\n");
  const core = runGitBytes(
    place.top,
    ["config", "-z", "--get-regexp", "^core\\.(worktree|bare)$"],
    placeEnv(place),
  );
  // As `distrustEnv` reads them: no answer (neither set, or git fails) is "?".
  const settings =
    core.status === 0
      ? new TextDecoder()
          .decode(core.stdout)
          .split("\0")
          .filter((s) => s !== "")
          .map((s) => (s.includes("\n") ? s.replace("\n", "=") : `${s}=`))
          .sort()
      : ["?"];
  return [entryMark(dotGit), ...settings].join("\n");
}

/** One sentence part per difference, for the agent. */
export function placeChanges(was: string, now: string): string[] {
  const [gitWas, ...coreWas] = was.split("\n");
  const [gitNow, ...coreNow] = now.split("\n");
  const said: string[] = [];
  if (gitWas !== gitNow) said.push(`.git was ${shown(gitWas)} and is now ${shown(gitNow)}`);
  for (const key of ["core.worktree", "core.bare"]) {
    const before = coreWas.find((s) => s.startsWith(`${key}=`))?.slice(key.length + 1);
    const after = coreNow.find((s) => s.startsWith(`${key}=`))?.slice(key.length + 1);
    if (before !== after)
      said.push(`${key} was ${before ?? "unset"} and is now ${after ?? "unset"}`);
  }
  return said.length > 0 ? said : ["git reads its repository differently"];
}

function shown(mark: string | undefined): string {
  if (mark === undefined || mark === "absent") return "absent";
  const colon = mark.indexOf(":");
  const what = { dir: "the folder", file: "a file saying", link: "a link to" }[
    mark.slice(0, colon)
  ];
  return `${what ?? "something else"} ${JSON.stringify(mark.slice(colon + 1))}`;
}

function entryMark(path: string): string {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (st === undefined) return "absent";
  try {
    if (st.isSymbolicLink()) return `link:${readlinkSync(path)}`;
    if (st.isDirectory()) return `dir:${realpathSync(path)}`;
    if (st.isFile()) return `file:${readTextHead(path)}`;
  } catch {
    return "unreadable";
  }
  return `other:${st.mode}`;
}

/** A `.git` file is one line; a big one is shown by its start. */
function readTextHead(path: string): string {
  return readFileSync(path, "utf8").slice(0, 512).trim();
}
