/**
 * Where git runs hooks from and which config files it includes: a hook there, or an
 * included file that sets `core.hooksPath` or `core.fsmonitor`, runs code at the person's
 * next commit, checkout or status.
 */
import { existsSync, lstatSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { runGit, splitNul } from "../match/git.ts";
import { CpilotError } from "../util/errors.ts";

export interface GitReads {
  /** Absolute; null outside a repository. */
  readonly hooks: string | null;
  /** Absolute, whether they exist yet or not. */
  readonly includes: readonly string[];
  /** Files the commands in git's config may run (core.fsmonitor, filters, `!` aliases), from the top of the work tree. */
  readonly commandFiles: readonly string[];
  /** The repository's git folders (absolute): its own and the common one (a linked worktree's differ). */
  readonly gitDirs: readonly string[];
}

const GIT_VARS = [
  "GIT_DIR",
  "GIT_COMMON_DIR",
  "GIT_WORK_TREE",
  "GIT_CONFIG",
  "GIT_CONFIG_PARAMETERS",
  "GIT_CONFIG_COUNT",
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_SYSTEM",
];

interface Repo {
  readonly top: string;
  readonly gitDir: string;
  readonly commonDir: string;
}

function findRepo(cwd: string): Repo | null {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    const stat = lstatSync(dotGit, { throwIfNoEntry: false });
    if (stat?.isDirectory()) return { top: dir, gitDir: dotGit, commonDir: dotGit };
    if (stat?.isFile()) {
      const named = /^gitdir: (.+)$/m.exec(readText(dotGit))?.[1]?.trim();
      if (named === undefined) return null;
      const gitDir = resolve(dir, named);
      const common = readText(join(gitDir, "commondir")).trim();
      return { top: dir, gitDir, commonDir: common === "" ? gitDir : resolve(gitDir, common) };
    }
    if (dir === dirname(dir)) return null;
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** `/etc/gitconfig` and `<prefix>/etc/gitconfig` beside each git on PATH: git's prefix is built in. */
function systemConfigs(env: NodeJS.ProcessEnv): string[] {
  const out = new Set(["/etc/gitconfig"]);
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir !== "" && existsSync(join(dir, "git"))) out.add(join(dirname(dir), "etc", "gitconfig"));
  }
  return [...out];
}

function configTexts(repo: Repo, env: NodeJS.ProcessEnv): string {
  const home = env.HOME || homedir();
  const xdg = env.XDG_CONFIG_HOME || join(home, ".config");
  return [
    ...systemConfigs(env),
    join(xdg, "git", "config"),
    join(home, ".gitconfig"),
    join(repo.commonDir, "config"),
    join(repo.gitDir, "config.worktree"),
  ]
    .map(readText)
    .join("\n");
}

/**
 * Git is asked only when a config file names `hooksPath` or an include; a file that names
 * neither cannot set them. Throws a CpilotError when git cannot say.
 */
export function gitReads(cwd: string, env: NodeJS.ProcessEnv = process.env): GitReads {
  const repo = findRepo(cwd);
  const byEnv = GIT_VARS.some((name) => env[name] !== undefined);
  if (repo === null && !byEnv) return { hooks: null, includes: [], commandFiles: [], gitDirs: [] };
  const text = repo === null ? "" : configTexts(repo, env);
  const askHooks = byEnv || /hookspath/i.test(text);
  const askIncludes = byEnv || /include/i.test(text) || COMMAND_LINE.test(text);
  if (!askHooks && !askIncludes && repo !== null) {
    const gitDirs = [repo.gitDir, repo.commonDir];
    return { hooks: join(repo.commonDir, "hooks"), includes: [], commandFiles: [], gitDirs };
  }
  const asked = ask(cwd, [
    "rev-parse",
    "--show-toplevel",
    "--git-path",
    "hooks",
    "--absolute-git-dir",
    "--git-common-dir",
  ]);
  if (asked === null) return { hooks: null, includes: [], commandFiles: [], gitDirs: [] };
  const [topLine = "", hooksLine = "", gitDir = "", commonDir = ""] = asked.split("\n");
  const hooks = resolve(cwd, hooksLine);
  const top = topLine === "" ? cwd : topLine;
  const gitDirs = [gitDir, commonDir].filter((d) => d !== "").map((d) => resolve(cwd, d));
  const named = askIncludes ? namedFiles(top, env) : { includes: [], commandFiles: [] };
  return { hooks, ...named, gitDirs };
}

const READ_KEYS =
  "^(include(if\\..*)?\\.path|core\\.(fsmonitor|sshcommand|pager|editor)|sequence\\.editor|diff\\.external|diff\\..*\\.(command|textconv)|filter\\..*\\.(clean|smudge|process)|merge\\..*\\.driver|alias\\..*|gpg(\\..*)?\\.program|interactive\\.difffilter|pager\\..*)$";

const COMMAND_LINE =
  /^\s*(fsmonitor|sshcommand|pager|editor|external|command|textconv|clean|smudge|process|driver|program|difffilter)\s*=|^\s*\[\s*(alias|pager)\b/im;

function namedFiles(
  top: string,
  env: NodeJS.ProcessEnv,
): { includes: string[]; commandFiles: string[] } {
  const out = ask(top, ["config", "-z", "--show-origin", "--get-regexp", READ_KEYS]) ?? "";
  const fields = splitNul(out);
  const includes: string[] = [];
  const commandFiles: string[] = [];
  const home = env.HOME || homedir();
  // -z with --show-origin: origin NUL, then key NEWLINE value NUL
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const origin = (fields[i] ?? "").replace(/^file:/, "");
    const [key = "", ...rest] = (fields[i + 1] ?? "").split("\n");
    const value = rest.join("\n");
    if (value === "") continue;
    if (/^include/.test(key)) {
      const path = value.startsWith("~/") ? join(home, value.slice(2)) : value;
      includes.push(isAbsolute(path) ? path : resolve(top, dirname(origin), path));
      continue;
    }
    for (const word of commandWords(value)) {
      const path = word.startsWith("~/") ? join(home, word.slice(2)) : word;
      commandFiles.push(resolve(top, path));
    }
  }
  return { includes, commandFiles };
}

/**
 * The words of a command that may name a file (a path, or a name with an extension).
 * Over-counting protects a file too many, never one too few.
 */
function commandWords(command: string): string[] {
  return command
    .replace(/^!/, "")
    .replace(/["'\\]/g, " ")
    .split(/[\s;&|<>()`=]+/)
    .filter((w) => w !== "" && !w.startsWith("-") && !w.startsWith("%") && !w.startsWith("$"))
    .filter((w) => w.includes("/") || /\.[A-Za-z0-9]+$/.test(w));
}

/** null outside a repository. `safe.directory=*`: rev-parse and config run nothing of a repository another user owns. */
function ask(cwd: string, args: string[]): string | null {
  const full = ["-c", "safe.directory=*", ...args];
  const result = runGit(cwd, full);
  if (result.ok) return result.stdout.replace(/\n$/, "");
  // no include at all: --get-regexp exits 1 with no output
  if (args[0] === "config" && result.stdout === "" && result.stderr === "") return "";
  if (!existsSync(cwd) || /not a git repository/i.test(result.stderr)) return null;
  throw new CpilotError(
    `Cannot find where git runs hooks from in "${cwd}": ${result.stderr.split("\n")[0] || (result.missing ? "git is not installed" : "git failed")}`,
    { hint: `run \`git ${args.join(" ")}\` there to see why` },
  );
}
