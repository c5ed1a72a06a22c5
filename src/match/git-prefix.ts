import { existsSync } from "node:fs";
import { join } from "node:path";
import { runGit } from "./git.ts";

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
