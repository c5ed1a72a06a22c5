import { homedir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { runGit, splitNul } from "../match/git.ts";
import { findGitDir } from "../util/git-dir.ts";
import { readRegularFile } from "../util/read-regular.ts";
import { findProgram } from "./find-program.ts";
import { commonGitDir } from "./object-format.ts";

/** What a config file says that may make git convert: the settings themselves, or a file it includes. */
const MAY_CONVERT = /attributesfile|\[\s*include/i;
/**
 * Attributes by which git compares a file's bytes converted, not as they are: `ident`, a
 * filter, an encoding. Not line endings (`text`, `eol`, `crlf`, `core.autocrlf`): a file
 * that differs from its blob only by them is committed as the blob, which its key names. Not
 * Git LFS's filter: its pointer blob names the content by its own hash.
 */
const ATTRIBUTE = /(^|\s)!?(ident|working-tree-encoding|filter(?!=lfs(\s|$)))(=\S*)?(?=\s|$)/m;

const known = new Map<string, boolean>();

/** Does this attributes text name a conversion? Over-approximate: a comment or pattern naming one counts. */
export function namesConversion(text: string): boolean {
  return ATTRIBUTE.test(text);
}

/**
 * Do git's settings outside the project make it convert bytes as it compares them: an
 * attributes file in `info/`, the person's or the system's naming a conversion, or one
 * `core.attributesFile` names? Read from the files themselves; git is asked only when a config file
 * or the environment names one of those settings or includes another file. Once per root.
 */
export function settingsConvert(root: string): boolean {
  let answer = known.get(root);
  if (answer === undefined) {
    answer = attributesConvert(root) || configConverts(root);
    known.set(root, answer);
  }
  return answer;
}

function attributesConvert(root: string): boolean {
  // attributes read from a tree git is pointed at: not looked into
  if (process.env.GIT_ATTR_SOURCE) return true;
  const common = commonGitDir(root);
  const files = [
    common === null ? null : join(common, "info", "attributes"),
    join(xdgConfig(), "git", "attributes"),
    ...(process.env.GIT_ATTR_NOSYSTEM === undefined ? systemFiles("gitattributes") : []),
  ];
  return files.some((path) => path !== null && namesConversion(text(path)));
}

function configConverts(root: string): boolean {
  const env = process.env;
  if (env.GIT_CONFIG_PARAMETERS || env.GIT_CONFIG_COUNT) return askGit(root);
  const common = commonGitDir(root);
  const gitDir = findGitDir(root);
  const files = [
    common === null ? null : join(common, "config"),
    gitDir === null ? null : join(gitDir, "config.worktree"),
    ...(env.GIT_CONFIG_GLOBAL !== undefined
      ? [env.GIT_CONFIG_GLOBAL]
      : [join(home(), ".gitconfig"), join(xdgConfig(), "git", "config")]),
    ...(env.GIT_CONFIG_NOSYSTEM ? [] : systemFiles("gitconfig")),
  ];
  return files.some((path) => path !== null && MAY_CONVERT.test(text(path))) && askGit(root);
}

/** git's own answer: a core.attributesFile naming a conversion. */
function askGit(root: string): boolean {
  const r = runGit(root, ["config", "-z", "--get-regexp", "^core\\.attributesfile$"]);
  // exit 1 with nothing said: it is not set
  if (!r.ok) return r.stdout !== "" || r.stderr !== "";
  for (const entry of splitNul(r.stdout)) {
    const at = entry.indexOf("\n");
    const name = at === -1 ? entry : entry.slice(0, at);
    const value = at === -1 ? "" : entry.slice(at + 1).trim();
    if (name === "core.attributesfile" && value !== "") {
      const path = value.startsWith("~/") ? join(home(), value.slice(2)) : value;
      const file = isAbsolute(path) ? path : join(root, path);
      if (readRegularFile(file, 4 * 1024 * 1024) === null || namesConversion(text(file)))
        return true;
    }
  }
  return false;
}

let gitPrefixDir: string | null | undefined;

/** The system's `name` file: /etc's, and the one beside the git found on PATH (a git built elsewhere). */
function systemFiles(name: string): string[] {
  const env = process.env;
  if (name === "gitconfig" && env.GIT_CONFIG_SYSTEM !== undefined) return [env.GIT_CONFIG_SYSTEM];
  if (gitPrefixDir === undefined) {
    const git = findProgram("git", process.cwd());
    gitPrefixDir = git === null ? null : dirname(dirname(git.path));
  }
  const beside = gitPrefixDir === null ? null : join(gitPrefixDir, "etc", name);
  return beside === null ? [`/etc/${name}`] : [...new Set([`/etc/${name}`, beside])];
}

function home(): string {
  return process.env.HOME ?? homedir();
}

function xdgConfig(): string {
  return process.env.XDG_CONFIG_HOME || join(home(), ".config");
}

function text(path: string): string {
  return readRegularFile(path, 4 * 1024 * 1024)?.toString("utf8") ?? "";
}
