import { homedir } from "node:os";
import { join } from "node:path";
import { runGit, splitNul } from "../match/git.ts";
import { readRegularFile } from "../util/read-regular.ts";
import { commonGitDir } from "./object-format.ts";

/** Attributes that make git compare a file's bytes after a change (ident, eol, a filter), not as they are. */
const CONVERTING = /(^|\s)!?(ident|filter|text|eol|crlf|working-tree-encoding)(=\S*)?(?=\s|$)/m;

/** Settings by which git changes line endings whatever the attributes say, or reads attributes elsewhere. */
const SETTINGS = ["config", "-z", "--get-regexp", "^core\\.(autocrlf|attributesfile)$"];

const known = new Map<string, boolean>();

/**
 * May `git status` call a file unchanged whose bytes differ from the blob git's index holds
 * for it? Yes when git converts bytes as it compares them: an attributes file (of the project,
 * `info/attributes`, the person's, the system's) names `ident`, a filter, `text`, `eol` or
 * another conversion, or git's config sets `core.autocrlf` (or reads attributes from a file
 * it names). `attributeFiles`: the project's `.gitattributes` files, root-relative, tracked or
 * not. One `git config` call, once per root; a file that cannot be read counts as converting.
 */
export function gitConverts(root: string, attributeFiles: readonly string[]): boolean {
  const memo = `${root}\0${attributeFiles.join("\0")}`;
  let answer = known.get(memo);
  if (answer === undefined) {
    answer = attributeFiles.some((f) => converting(join(root, f))) || outsideConverts(root);
    known.set(memo, answer);
  }
  return answer;
}

/** Is this a `.gitattributes` file, by its path? */
export function isAttributesFile(path: string): boolean {
  return path === ".gitattributes" || path.endsWith("/.gitattributes");
}

function outsideConverts(root: string): boolean {
  const common = commonGitDir(root);
  if (common !== null && mentions(join(common, "info", "attributes"))) return true;
  const env = process.env;
  if (env.GIT_ATTR_NOSYSTEM === undefined && mentions("/etc/gitattributes")) return true;
  const home = env.HOME ?? homedir();
  const xdg = env.XDG_CONFIG_HOME || join(home, ".config");
  if (mentions(join(xdg, "git", "attributes"))) return true;
  const r = runGit(root, SETTINGS);
  // exit 1: neither is set
  if (!r.ok) return r.stdout !== "" || r.stderr !== "";
  for (const entry of splitNul(r.stdout)) {
    const [name, value = ""] = entry.split("\n");
    if (name === "core.autocrlf" && !/^(false|no|off|0)$/i.test(value.trim())) return true;
    if (name === "core.attributesfile" && value !== "") {
      const file = value.startsWith("~/") ? join(home, value.slice(2)) : join(root, value);
      if (converting(value.startsWith("/") ? value : file)) return true;
    }
  }
  return false;
}

/** Does the attributes file name a conversion? A file there that cannot be read is taken to. */
function converting(path: string): boolean {
  const bytes = readRegularFile(path, 4 * 1024 * 1024);
  return bytes === null || CONVERTING.test(bytes.toString("utf8"));
}

/** Does the attributes file, if there, name a conversion? */
function mentions(path: string): boolean {
  const bytes = readRegularFile(path, 4 * 1024 * 1024);
  return bytes !== null && CONVERTING.test(bytes.toString("utf8"));
}
