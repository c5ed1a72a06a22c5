/**
 * What git runs or reads at the person's commands outside `.git/`: a hooks folder inside
 * the work tree (husky's), a hook's symlink target, included config files. An agent that
 * wrote one could drop the pre-commit check or run commands at the person's next commit,
 * checkout or `git status`.
 */
import { lstatSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { gitReads } from "../githook/git-reads.ts";
import { CHAINED_SUFFIX } from "../githook/script.ts";
import { realOr } from "../util/real-path.ts";
import { projectPath } from "./own-config.ts";
import { skeleton } from "./protected.ts";

/** Relative to the project root (posix, folded). */
interface GitRunPlaces {
  readonly folders: ReadonlyMap<string, string>;
  readonly files: ReadonlyMap<string, string>;
  /** Hard links of hooks under other names: writing any of them writes the hook. */
  readonly inodes: ReadonlySet<string>;
}

/** For a hooks folder that is the project root itself. */
const HOOK_NAMES = new Set([
  "applypatch-msg",
  "pre-applypatch",
  "post-applypatch",
  "pre-commit",
  "pre-merge-commit",
  "prepare-commit-msg",
  "commit-msg",
  "post-commit",
  "pre-rebase",
  "post-checkout",
  "post-merge",
  "pre-push",
  "pre-receive",
  "update",
  "proc-receive",
  "post-receive",
  "post-update",
  "reference-transaction",
  "push-to-checkout",
  "pre-auto-gc",
  "post-rewrite",
  "sendemail-validate",
  "fsmonitor-watchman",
  "post-index-change",
  "p4-changelist",
  "p4-prepare-changelist",
  "p4-post-changelist",
  "p4-pre-submit",
]);

/** At any depth. */
export function isHuskyPath(relPath: string): boolean {
  return relPath.split(/[/\\]/).some((s) => skeleton(s) === ".husky");
}

export function folded(rel: string): string {
  return rel
    .split(/[/\\]/)
    .filter((s) => s !== "" && s !== ".")
    .map(skeleton)
    .join("/");
}

/** In words; null when nothing. Covers repositories nested in the project; git is asked once per repository. */
export function gitRunChecker(root: string): (rel: string) => string | null {
  const top = resolve(root);
  const byRepo = new Map<string, GitRunPlaces>();
  const placesOf = (repo: string): GitRunPlaces => {
    let places = byRepo.get(repo);
    if (places === undefined) {
      places = gitRunPlaces(repo, top);
      byRepo.set(repo, places);
    }
    return places;
  };
  const rootPlaces = placesOf(top);
  return (rel) => {
    const key = folded(rel);
    for (const places of [rootPlaces, ...nestedRepos(top, rel).map(placesOf)]) {
      const kind = places.files.get(key) ?? folderKind(places, key) ?? linkKind(places, top, rel);
      if (kind !== null) return kind;
    }
    return isHuskyPath(rel)
      ? "in a .husky folder, whose scripts git runs as hooks once husky is installed"
      : null;
  };
}

function folderKind(places: GitRunPlaces, key: string): string | null {
  for (const [folder, what] of places.folders)
    if (key === folder || key.startsWith(`${folder}/`)) return what;
  return null;
}

function linkKind(places: GitRunPlaces, top: string, rel: string): string | null {
  if (places.inodes.size === 0) return null;
  const stat = statSync(join(top, rel), { throwIfNoEntry: false });
  return stat !== undefined && places.inodes.has(`${stat.dev}:${stat.ino}`)
    ? "a git hook under another name (a hard link to it)"
    : null;
}

/** Absolute. */
function nestedRepos(top: string, rel: string): string[] {
  const parts = rel
    .split(/[/\\]/)
    .filter((s) => s !== "" && s !== ".")
    .slice(0, -1);
  const out: string[] = [];
  for (let i = 1; i <= parts.length; i++) {
    const dir = join(top, ...parts.slice(0, i));
    if (lstatSync(join(dir, ".git"), { throwIfNoEntry: false }) !== undefined) out.push(dir);
  }
  return out;
}

function gitRunPlaces(repo: string, top: string): GitRunPlaces {
  const inProject = projectPath(top);
  const relOf = (at: string): string | null =>
    at === top || at === realOr(top) ? "" : inProject(at);
  const reads = gitReads(repo);
  const folders = new Map<string, string>();
  const files = new Map<string, string>();
  const inodes = new Set<string>();
  const addFolder = (dir: string, what: string): void => {
    for (const at of [dir, realOr(dir)]) {
      const rel = relOf(at);
      if (rel === "") {
        // hooks run from the root itself: each hook's name there (and a hook cpilot chained)
        for (const name of HOOK_NAMES)
          files.set(name, `the git hook ${name}, which git runs from the project's root`);
        files.set(`pre-commit${CHAINED_SUFFIX}`, "a git hook that cpilot's pre-commit hook runs");
      } else if (rel !== null) folders.set(folded(rel), what);
    }
    for (const name of listing(dir)) {
      const path = join(dir, name);
      const stat = lstatSync(path, { throwIfNoEntry: false });
      // a hook that is a symlink runs the file it leads to
      if (stat?.isSymbolicLink()) {
        const rel = relOf(realOr(path));
        if (rel) files.set(folded(rel), `a file the git hook ${name} runs (a symlink to it)`);
      } else if (stat?.isFile() && stat.nlink > 1) inodes.add(`${stat.dev}:${stat.ino}`);
    }
  };
  if (reads.hooks !== null) {
    addFolder(reads.hooks, "in the folder git runs hooks from (core.hooksPath)");
    // husky's hooks in `<dir>/_` run the scripts of the same name in `<dir>`
    if (basename(reads.hooks) === "_")
      addFolder(dirname(reads.hooks), "in husky's folder of git hooks");
  }
  for (const dir of huskyDirs(repo)) addFolder(dir, "in the folder husky installs git hooks from");
  // a git folder not named .git (`git init --separate-git-dir=repo-data`)
  for (const dir of reads.gitDirs) {
    const rel = relOf(dir);
    if (rel) folders.set(folded(rel), "in git's own folder (its config, hooks and objects)");
  }
  for (const include of reads.includes) {
    for (const at of [include, realOr(include)]) {
      const rel = relOf(at);
      if (rel) files.set(folded(rel), "a git config file that git includes");
    }
  }
  for (const file of reads.commandFiles) {
    for (const at of [file, realOr(file)]) {
      const rel = relOf(at);
      if (rel)
        files.set(
          folded(rel),
          "a file a command in git's config runs (core.fsmonitor, a filter, an alias)",
        );
    }
  }
  return { folders, files, inodes };
}

/** `husky .config/husky` in install scripts: on a clone without husky installed, core.hooksPath does not name them. */
function huskyDirs(repo: string): string[] {
  let scripts: unknown;
  try {
    scripts = (
      JSON.parse(readFileSync(join(repo, "package.json"), "utf8")) as { scripts?: unknown }
    ).scripts;
  } catch {
    return [];
  }
  if (typeof scripts !== "object" || scripts === null) return [];
  const out: string[] = [];
  for (const line of Object.values(scripts)) {
    if (typeof line !== "string") continue;
    for (const m of line.matchAll(/\bhusky(?:\s+(?:install|init))?\s+([^\s;&|'"]+)/g)) {
      const dir = m[1] ?? "";
      if (dir !== "" && !dir.startsWith("-")) out.push(resolve(repo, dir));
    }
  }
  return out;
}

function listing(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
