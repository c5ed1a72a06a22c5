import { existsSync } from "node:fs";
import { join } from "node:path";
import { runGit, splitNul } from "./git.ts";

/** Roots already asked about: a hook call may look more than once. */
const prefixes = new Map<string, string | null>();

/**
 * `root` relative to its work tree's top, with a trailing `/` ("" at the top); null outside
 * git. git names files from its top whatever folder it runs in (`git status`): a root
 * below the top takes this prefix off them. A root holding `.git` is its own top: no git
 * process for it.
 */
export function gitPrefix(root: string): string | null {
  if (existsSync(join(root, ".git"))) return "";
  const known = prefixes.get(root);
  if (known !== undefined) return known;
  const r = runGit(root, ["rev-parse", "--show-prefix"]);
  const prefix = r.ok ? r.stdout.replace(/\n$/, "") : null;
  // outside git is not remembered: a `git init` may come between two looks
  if (prefix !== null) prefixes.set(root, prefix);
  return prefix;
}

/**
 * The files below `root` (root-relative) that `git status` lists among `pathspecs` (all of
 * root's when none): changed in the work tree or the index, or untracked and not ignored;
 * null outside git or when git fails. Through runGit: no optional locks (a plain `git
 * status` refreshes and rewrites the index under index.lock, and a git command beside it
 * then fails), names that are not UTF-8 kept as they are, and git's names, which start at
 * its top, made root-relative.
 */
export function changedOrUntracked(root: string, pathspecs: readonly string[]): string[] | null {
  const prefix = gitPrefix(root);
  if (prefix === null) return null;
  const within = pathspecs.length > 0 ? pathspecs : prefix === "" ? [] : ["."];
  const r = runGit(root, [
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=all",
    "--no-renames",
    ...(within.length > 0 ? ["--", ...within] : []),
  ]);
  if (!r.ok) return null;
  const files: string[] = [];
  for (const entry of splitNul(r.stdout)) {
    if (entry.length <= 3 || !entry.startsWith(prefix, 3)) continue;
    const path = entry.slice(3 + prefix.length);
    if (path !== "") files.push(path);
  }
  return files;
}
