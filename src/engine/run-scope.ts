import type { CallbackDef } from "../config/types.ts";

const READS_FILES = /\$\{?[@*#1-9]|CP_CHANGED_FILE/;

/**
 * Does the callback check the same things whatever files it is given (`tsc -p .`)? Then a
 * file its last complete run did not name had no diagnostics then.
 */
export function checksWholeProject(run: CallbackDef["run"]): boolean {
  if (typeof run === "string") return !READS_FILES.test(run);
  if (typeof run === "function") return false;
  return !run.some((part) => part.includes("{file"));
}

/** Checkers that read files they are not given (imports, the package): keyed by the whole project's content. */
const READS_BEYOND_ITS_FILES = new Set([
  "mypy",
  "dmypy",
  "pyright",
  "basedpyright",
  "pytype",
  "tsc",
  "vue-tsc",
  "eslint",
  "cargo",
  "go",
  "golangci-lint",
  "staticcheck",
  "gopls",
  "clippy-driver",
  "rustc",
  "pylint",
]);

export function readsBeyondItsFiles(run: CallbackDef["run"]): boolean {
  if (typeof run === "function" || checksWholeProject(run)) return true;
  const words = typeof run === "string" ? run.trim().split(/\s+/) : [...run];
  const runners = new Set([
    "npx",
    "bunx",
    "pnpm",
    "yarn",
    "exec",
    "uv",
    "run",
    "poetry",
    "python",
    "-m",
    "python3",
  ]);
  for (const word of words) {
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) continue;
    const name = word.slice(word.lastIndexOf("/") + 1);
    if (READS_BEYOND_ITS_FILES.has(name)) return true;
    if (!runners.has(name)) return false;
  }
  return false;
}
