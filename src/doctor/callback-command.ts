import { accessSync, constants, existsSync, readFileSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join } from "node:path";
import type { ResolvedCallback } from "../config/resolve.ts";
import type { CallbackCheck } from "./types.ts";

export function onPath(name: string, env = process.env): string | null {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (dir === "") continue;
    const full = join(dir, name);
    if (isExecutable(full)) return full;
  }
  return null;
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Shell words that are not programs: builtins and keywords a `run` string may start with. */
const SHELL_WORDS = new Set(
  "! [ [[ { ( . : alias bg break builtin case cd command continue declare echo eval exec exit export false fg for function getopts hash if jobs kill let local printf pwd read readonly return set shift source test times trap true type typeset ulimit umask unalias unset until wait while".split(
    " ",
  ),
);

/** The program a shell string starts: its first word after `VAR=value` assignments. */
export function firstProgram(run: string): string | null {
  const words = run.trim().match(/(?:[^\s"'\\]+|"[^"]*"|'[^']*'|\\.)+/g) ?? [];
  for (const word of words) {
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) continue;
    return word.replace(/^(["'])(.*)\1$/, "$2");
  }
  return null;
}

export function checkCallback(cb: ResolvedCallback, env: NodeJS.ProcessEnv): CallbackCheck {
  if (typeof cb.run === "function")
    return { name: cb.name, command: null, status: "n/a", detail: "TypeScript function" };
  return checkRun(
    { name: cb.name, run: cb.run, cwd: cb.cwd },
    { ...env, PATH: cb.env.PATH ?? env.PATH ?? "" },
  );
}

export function checkRun(
  cb: { readonly name: string; readonly run: string | readonly string[]; readonly cwd: string },
  env: NodeJS.ProcessEnv,
): CallbackCheck {
  const program = typeof cb.run === "string" ? firstProgram(cb.run) : (cb.run[0] ?? null);
  if (program === null || program === "")
    return { name: cb.name, command: null, status: "missing", detail: "empty command" };
  if (typeof cb.run === "string" && (SHELL_WORDS.has(program) || program.includes("$"))) {
    return { name: cb.name, command: program, status: "ok", detail: "shell builtin or expansion" };
  }
  if (program.includes("/")) {
    const full = isAbsolute(program) ? program : join(cb.cwd, program);
    return isExecutable(full)
      ? { name: cb.name, command: program, status: "ok", detail: full }
      : {
          name: cb.name,
          command: program,
          status: "missing",
          detail: `${full} is not an executable file`,
        };
  }
  const path = onPath(program, env);
  const words = typeof cb.run === "string" ? (cb.run.trim().split(/\s+/) ?? []) : [...cb.run];
  const pnp = path === null || words[0] !== "yarn" ? null : plugAndPlay(cb.cwd);
  if (pnp === "not installed")
    return {
      name: cb.name,
      command: program,
      status: "missing",
      detail:
        "Yarn's Plug'n'Play is not installed (no .pnp.cjs beside .yarnrc.yml): run `yarn install`",
    };
  const tool = path === null || pnp === "installed" ? null : missingRunnerTool(words, cb.cwd);
  if (tool !== null) {
    return {
      name: cb.name,
      command: program,
      status: "missing",
      detail: `"${tool}" is not in node_modules/.bin (npx would download it, or fail): install its package`,
    };
  }
  return path !== null
    ? { name: cb.name, command: program, status: "ok", detail: path }
    : { name: cb.name, command: program, status: "missing", detail: `"${program}" is not on PATH` };
}

/**
 * Under Yarn's Plug'n'Play, `yarn <tool>` finds the tool through `.pnp.cjs`, with no
 * node_modules/.bin; null where the nearest `.yarnrc.yml` names another linker, or none is found.
 */
function plugAndPlay(cwd: string): "installed" | "not installed" | null {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".pnp.cjs"))) return "installed";
    const rc = join(dir, ".yarnrc.yml");
    if (existsSync(rc)) {
      const linker = /^nodeLinker\s*:\s*["']?([\w-]+)/m.exec(readText(rc))?.[1];
      return linker === undefined || linker === "pnp" ? "not installed" : null;
    }
    if (dirname(dir) === dir) return null;
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

const RUNNERS: Record<string, string | null> = { npx: null, bunx: null, pnpm: "exec", yarn: null };

/** The tool behind `npx`, bunx, pnpm exec, yarn, when no node_modules/.bin above `cwd` has it (npx would download it). */
export function missingRunnerTool(words: readonly string[], cwd: string): string | null {
  const [runner, ...rest] = words;
  if (runner === undefined || !(runner in RUNNERS)) return null;
  let args = rest;
  const sub = RUNNERS[runner];
  if (sub !== null) {
    if (args[0] !== sub) return null;
    args = args.slice(1);
  }
  const tool = args.find((a) => !a.startsWith("-"));
  if (tool === undefined || tool.includes("@") || tool.includes("/")) return null;
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "node_modules", ".bin", tool))) return null;
    if (dirname(dir) === dir) return tool;
  }
}
