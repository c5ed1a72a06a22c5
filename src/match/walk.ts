import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";
import ignore, { type Ignore } from "ignore";
import { readRegularFile } from "../util/read-regular.ts";
import { STATE_DIR } from "../util/state-layout.ts";
import { gitignoreRules } from "./gitignore-file.ts";

/** A .gitignore bigger than this is not one (a symlink to /dev/zero, a mistake): skipped. */
export const MAX_GITIGNORE_BYTES = 4 * 1024 * 1024;

function addGitignore(rules: Ignore, root: string, dir: string): void {
  const text = readRegularFile(join(root, dir, ".gitignore"), MAX_GITIGNORE_BYTES);
  if (text !== null) rules.add(gitignoreRules(text.toString("utf8"), dir));
}

function entries(abs: string): Dirent[] {
  try {
    return readdirSync(abs, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  } catch {
    return []; // unreadable or vanished meanwhile: nothing to list
  }
}

/** `.git` (a repository, or a worktree's pointer file) anywhere, `.cpilot` at the root. */
const skipped = (rel: string, name: string) => name === ".git" || rel === STATE_DIR;

/**
 * Files below `root` (or below `under`, a directory relative to it) as git would list
 * them untracked: relative posix paths, sorted per directory, honoring every .gitignore
 * on the way (deeper files win, a `!` cannot re-include below an ignored directory).
 * Skips `.git` and `<root>/.cpilot`; `node_modules` only when a .gitignore says so.
 * Symlinks are listed as files, like git does, and never followed. For trees outside git.
 *
 * @example
 * walkFiles("/tmp/site"); // ["index.html", "src/app.ts"]
 */
export function walkFiles(root: string, under = ""): string[] {
  const rules = ignore({ ignorecase: false });
  addGitignore(rules, root, "");
  let start = "";
  for (const part of under === "" ? [] : under.split("/")) {
    start = start === "" ? part : `${start}/${part}`;
    if (skipped(start, part) || rules.ignores(`${start}/`)) return [];
    addGitignore(rules, root, start);
  }
  const files: string[] = [];
  const pending = [start];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    const subdirs: string[] = [];
    for (const entry of entries(dir === "" ? root : join(root, dir))) {
      const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (skipped(rel, entry.name)) continue;
      if (entry.isDirectory()) {
        if (rules.ignores(`${rel}/`)) continue;
        addGitignore(rules, root, rel);
        subdirs.push(rel);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && !rules.ignores(rel)) {
        files.push(rel);
      }
    }
    pending.push(...subdirs.reverse());
  }
  return files;
}
