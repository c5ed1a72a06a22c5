import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { gitOrThrow } from "../match/git.ts";
import { CpilotError } from "../util/errors.ts";
import { readTextOrEmpty } from "../util/read-text.ts";
import { realOr } from "../util/real-path.ts";
import {
  BLOCK_END,
  BLOCK_START,
  CHAINED_SUFFIX,
  HOOK_MARKER,
  hookScript,
  huskyBlock,
} from "./script.ts";

export type HookChange = readonly string[];

export function hooksDir(cwd: string): string {
  const out = gitOrThrow(cwd, ["rev-parse", "--git-path", "hooks"], "find the git hooks folder");
  return resolve(cwd, out.trim());
}

/** A global `core.hooksPath` would run cpilot's pre-commit in every repository on the machine. */
function refuseShared(cwd: string, hooks: string): void {
  const where = (args: string[]): string =>
    realOr(resolve(cwd, gitOrThrow(cwd, ["rev-parse", ...args], "find the repository").trim()));
  const real = realOr(hooks);
  const own = [where(["--show-toplevel"]), where(["--git-common-dir"])];
  if (own.some((dir) => real === dir || real.startsWith(`${dir}${sep}`))) return;
  throw new CpilotError(
    `Cannot install the pre-commit hook in "${hooks}": core.hooksPath points outside this repository, so every repository using that folder would run it`,
    {
      hint: "add `cpilot check --staged` to that shared hook yourself (only where a callbacks config exists), or give this repository its own: git config core.hooksPath .git/hooks",
    },
  );
}

/** husky rewrites its shims (`.husky/_`) on every install; `.husky/pre-commit` is the file it runs. */
function huskyFile(hooks: string): string | null {
  if (basename(hooks) === "_" && basename(dirname(hooks)) === ".husky") {
    return join(dirname(hooks), "pre-commit");
  }
  if (basename(hooks) === ".husky" && existsSync(join(hooks, "_")))
    return join(hooks, "pre-commit");
  return null;
}

const isOurs = (path: string): boolean => readTextOrEmpty(path).includes(HOOK_MARKER);

function writeHook(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true }); // a core.hooksPath folder not made yet
  writeFileSync(path, text);
  chmodSync(path, 0o755);
}

/** An existing hook is kept as `pre-commit.pre-cpilot` and run first; with husky, a block in `.husky/pre-commit`. */
export function installGitHook(cwd: string): HookChange {
  const hooks = hooksDir(cwd);
  refuseShared(cwd, hooks);
  const husky = huskyFile(hooks);
  if (husky !== null) {
    const text = readTextOrEmpty(husky);
    if (text.includes(BLOCK_START))
      return [`cpilot: ${husky} already runs cpilot check --staged: nothing changed`];
    // First (after a shebang): a file that ends in `exit 0` or `exec …` would never reach
    // a block at its end, and the commit would pass unchecked.
    const shebang = /^#!.*\n/.exec(text)?.[0] ?? "";
    const next = `${shebang}${huskyBlock()}\n${text.slice(shebang.length)}`;
    writeHook(husky, next);
    return [`cpilot: added \`cpilot check --staged\` to husky's ${husky}`];
  }
  const hook = join(hooks, "pre-commit");
  const chained = `${hook}${CHAINED_SUFFIX}`;
  const there = lstatSync(hook, { throwIfNoEntry: false });
  if (there !== undefined && isOurs(hook)) {
    if (readTextOrEmpty(hook) === hookScript())
      return [`cpilot: ${hook} already runs cpilot check --staged: nothing changed`];
    writeHook(hook, hookScript());
    return [`cpilot: updated cpilot's pre-commit hook in ${hook}`];
  }
  const lines: string[] = [];
  if (there !== undefined) {
    if (lstatSync(chained, { throwIfNoEntry: false }) !== undefined) {
      throw new CpilotError(
        `Cannot chain the pre-commit hook "${hook}": ${chained} is already there`,
        {
          hint: `another tool replaced cpilot's hook; move ${chained} away (or merge it into ${hook}) and run cpilot install git again`,
        },
      );
    }
    renameSync(hook, chained);
    lines.push(`cpilot: kept the existing hook as ${chained}; it runs first, then the check`);
  }
  writeHook(hook, hookScript());
  lines.unshift(`cpilot: added a pre-commit hook running \`cpilot check --staged\`: ${hook}`);
  return lines;
}

/** Takes out exactly what {@link installGitHook} added and restores the hook it chained. */
export function uninstallGitHook(cwd: string): HookChange {
  const hooks = hooksDir(cwd);
  const husky = huskyFile(hooks);
  if (husky !== null) {
    const text = readTextOrEmpty(husky);
    const start = text.indexOf(BLOCK_START);
    const end = text.indexOf(BLOCK_END, start);
    if (start === -1 || end === -1) return [`cpilot: no cpilot block in ${husky}: nothing changed`];
    const rest = `${text.slice(0, start)}${text.slice(end + BLOCK_END.length).replace(/^\n/, "")}`;
    if (rest.trim() === "") unlinkSync(husky);
    else writeFileSync(husky, rest.replace(/\n+$/, "\n"));
    return [`cpilot: removed the cpilot block from ${husky}`];
  }
  const hook = join(hooks, "pre-commit");
  const chained = `${hook}${CHAINED_SUFFIX}`;
  if (!existsSync(hook) || !isOurs(hook))
    return [`cpilot: no cpilot pre-commit hook in ${hooks}: nothing changed`];
  if (lstatSync(chained, { throwIfNoEntry: false }) !== undefined) {
    renameSync(chained, hook);
    return [`cpilot: removed cpilot's pre-commit hook and put back the one it ran first (${hook})`];
  }
  unlinkSync(hook);
  return [`cpilot: removed cpilot's pre-commit hook ${hook}`];
}
