import { existsSync } from "node:fs";
import { join } from "node:path";
import { runGit, splitNul } from "./git.ts";

const prefixes = new Map<string, string | null>();

/**
 * `root` relative to its work tree's top, with a trailing `/` ("" at the top); null outside
 * git. git names files from its top, so a root below it takes this prefix off them.
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
 * The root-relative files `git status` lists as changed or untracked among `pathspecs`; null
 * outside git or when git fails. No optional locks: a plain `git status` rewrites the index.
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
