/**
 * The files in the project that git runs or reads at the person's own commands, outside
 * `.git/`: the hooks folder when `core.hooksPath` points into the work tree (husky's
 * `.husky/_`, a `.githooks/`), husky's folder of hook scripts, a file a hook is a symlink
 * to, and config files git includes. An agent that wrote one could drop cpilot's pre-commit
 * check or add commands that run at the person's next commit, checkout or `git status`.
 */
import { lstatSync, readdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { gitReads } from "../githook/git-reads.ts";
import { CHAINED_SUFFIX } from "../githook/script.ts";
import { realOr } from "../util/real-path.ts";
import { projectPath } from "./own-config.ts";
import { skeleton } from "./protected.ts";

export interface GitRunPlaces {
  /** Folders (relative to the root, posix) whose every file git may run. */
  readonly folders: readonly string[];
  /** Files (relative to the root, posix) git runs or reads, with what each is. */
  readonly files: ReadonlyMap<string, string>;
}

/** The hooks git runs (githooks(5)), for a hooks folder that is the project root itself. */
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

/** True when a segment of the path is a husky folder (`.husky`, at any depth). */
export function isHuskyPath(relPath: string): boolean {
  return relPath.split(/[/\\]/).some((s) => skeleton(s) === ".husky");
}

/** What git runs or reads in the project at `root`; see the file's comment. */
export function gitRunPlaces(root: string): GitRunPlaces {
  const top = resolve(root);
  const inProject = projectPath(top);
  const reads = gitReads(top);
  const folders = new Set<string>();
  const files = new Map<string, string>();
  const addFolder = (dir: string): void => {
    for (const at of [dir, realOr(dir)]) {
      const rel = inProject(at);
      if (rel !== null) folders.add(rel);
    }
    // hooks run from the root itself: each hook's name there (and a hook cpilot chained)
    if ([dir, realOr(dir)].some((at) => at === top || at === realOr(top))) {
      for (const name of HOOK_NAMES)
        files.set(name, `the git hook ${name}, which git runs from the project's root`);
      files.set(`pre-commit${CHAINED_SUFFIX}`, "a git hook that cpilot's pre-commit hook runs");
    }
    // a hook that is a symlink runs the file it leads to
    for (const name of listing(dir)) {
      const path = join(dir, name);
      if (!lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink()) continue;
      const rel = inProject(realOr(path));
      if (rel !== null) files.set(rel, `a file the git hook ${name} runs (a symlink to it)`);
    }
  };
  if (reads.hooks !== null) {
    addFolder(reads.hooks);
    // husky's hooks in `<dir>/_` run the scripts of the same name in `<dir>`
    if (basename(reads.hooks) === "_") addFolder(dirname(reads.hooks));
  }
  for (const include of reads.includes) {
    for (const at of [include, realOr(include)]) {
      const rel = inProject(at);
      if (rel !== null) files.set(rel, "a git config file that git includes");
    }
  }
  return { folders: [...folders], files };
}

function listing(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
