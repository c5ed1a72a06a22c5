import { type Dirent, readdirSync } from "node:fs";
import { join } from "node:path";
import ignore, { type Ignore } from "ignore";
import { readRegularFile } from "../util/read-regular.ts";
import { STATE_DIR } from "../util/state-layout.ts";
import { gitignoreRules } from "./gitignore-file.ts";

/** Bigger is no .gitignore (a symlink to /dev/zero, a mistake): skipped. */
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

const skipped = (rel: string, name: string) => name === ".git" || rel === STATE_DIR;

/**
 * Files below `root` (or `under`) as git would list them untracked, honoring every .gitignore
 * on the way. Skips `.git` and `<root>/.cpilot`; symlinks are listed, never followed.
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
