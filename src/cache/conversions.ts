import { dirname, join } from "node:path";
import { runGit, splitNul } from "../match/git.ts";
import { gitPrefix } from "../match/git-prefix.ts";
import { sha1Hex } from "../platform/digest.ts";
import { readRegularFile } from "../util/read-regular.ts";
import { namesConversion, settingsConvert } from "./conversion-settings.ts";
import { keepId, readKeptId } from "./kept-ids.ts";

/** Is this a `.gitattributes` file, by its path? */
export function isAttributesFile(path: string): boolean {
  return path === ".gitattributes" || path.endsWith("/.gitattributes");
}

/** Under `.cpilot/cache/`: whether a tree's attribute files name a conversion, by tree. */
const ATTRIBUTES = "attributes";
const NONE = "0".repeat(40);
const SOME = "f".repeat(40);

const known = new Map<string, boolean>();

/**
 * May `git status` call a file of the project at `root` unchanged whose bytes differ from its
 * index blob? Yes when git converts bytes as it compares them: an attributes file that applies
 * (in a folder above root, in HEAD's `tree` of root, among the `dirty` files, in `info/`, the
 * person's or the system's) names a conversion, or git's config sets one (see
 * conversion-settings.ts). What HEAD's tree holds is asked of git once per tree and kept.
 */
export function gitConverts(root: string, tree: string, dirty: readonly string[]): boolean {
  const changed = dirty.filter(isAttributesFile);
  const memo = [root, tree, ...changed].join("\0");
  let answer = known.get(memo);
  if (answer === undefined) {
    answer =
      // git reads a deleted one from its index: one that cannot be read counts
      changed.some((path) => !readsPlain(join(root, path), true)) ||
      abovePlain(root) === false ||
      treeConverts(root, tree, new Set(changed)) ||
      settingsConvert(root);
    known.set(memo, answer);
  }
  return answer;
}

/** Do the attribute files of the folders above root, to the work tree's top, name none? Null outside git. */
function abovePlain(root: string): boolean | null {
  const prefix = gitPrefix(root);
  if (prefix === null) return null;
  let dir = root;
  for (let depth = prefix.split("/").filter(Boolean).length; depth > 0; depth--) {
    dir = dirname(dir);
    if (!readsPlain(join(dir, ".gitattributes"), false)) return false;
  }
  return true;
}

/**
 * Do the attribute files HEAD's tree holds under root name a conversion? Read from disk, as
 * those not among the changed files hold the tree's text; kept by tree only when none was changed.
 */
function treeConverts(root: string, tree: string, changed: ReadonlySet<string>): boolean {
  const name = sha1Hex(`${ATTRIBUTES}\0${tree}`);
  const kept = readKeptId(root, ATTRIBUTES, name);
  if (kept === NONE || kept === SOME) return kept === SOME;
  const r = runGit(root, ["ls-tree", "-r", "-z", "--name-only", tree]);
  if (!r.ok) return true;
  const files = splitNul(r.stdout).filter(isAttributesFile);
  const converts = files.some((path) => !readsPlain(join(root, path), true));
  if (!files.some((path) => changed.has(path)))
    keepId(root, ATTRIBUTES, name, converts ? SOME : NONE);
  return converts;
}

/** Does the attributes file name no conversion? `absentConverts`: whether one not there (or not a file) counts as converting. */
function readsPlain(path: string, absentConverts: boolean): boolean {
  const bytes = readRegularFile(path, 4 * 1024 * 1024);
  if (bytes === null) return !absentConverts;
  return !namesConversion(bytes.toString("utf8"));
}
