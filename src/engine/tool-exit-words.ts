// What a known tool means by its exit codes, where it differs from "failed". tsc's 2 also
// comes under --noEmit, so it too only means errors were reported.
const TSC_EXITS = { 1: "type errors reported", 2: "type errors reported" };
const TOOL_EXITS: Record<string, Record<number, string>> = {
  tsc: TSC_EXITS,
  tsgo: TSC_EXITS,
  "vue-tsc": TSC_EXITS,
  eslint: { 1: "lint errors", 2: "eslint itself failed: config or crash" },
  prettier: { 1: "files not formatted", 2: "prettier itself failed: syntax or config error" },
  biome: { 1: "errors found" },
  oxlint: { 1: "lint errors" },
  xo: { 1: "lint errors" },
  ruff: { 1: "violations found", 2: "ruff itself failed: config or CLI error" },
  black: { 1: "files would be reformatted", 123: "black itself failed: internal error" },
  flake8: { 1: "violations found" },
  mypy: {
    1: "type errors",
    2: "mypy stopped: a blocking error such as invalid syntax or a module found twice, or bad arguments or config",
  },
  pylint: {
    1: "fatal message",
    2: "errors",
    4: "warnings",
    8: "refactor messages",
    16: "convention messages",
    32: "usage error",
  },
  pytest: {
    1: "tests failed",
    2: "interrupted",
    3: "pytest internal error",
    4: "pytest usage error",
    5: "no tests collected",
  },
  cargo: { 101: "compile errors, or a panic" },
  rustfmt: { 1: "parse error or formatting check failed" },
  gofmt: { 2: "syntax error" },
  go: { 1: "problems found", 2: "build failed" },
  "golangci-lint": { 1: "issues found", 3: "golangci-lint itself failed" },
};

const RUNNERS = new Set([
  "npx",
  "bunx",
  "pnpx",
  "uvx",
  "poetry",
  "pipenv",
  "env",
  "exec",
  "time",
  "nice",
]);

/** The program's file name, looking past `FOO=1`, `npx --no-install` and paths. */
export function toolOf(run: unknown): string | null {
  const words = Array.isArray(run)
    ? (run as string[])
    : typeof run === "string"
      ? (run.trim().split(/\s*(?:&&|\|\||;|\|)\s*/)[0] ?? "").split(/\s+/)
      : [];
  for (const word of words) {
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || word.startsWith("-")) continue;
    const name = word.replace(/["']/g, "").split("/").pop() ?? "";
    if (RUNNERS.has(name) || name === "run" || name === "exec") continue;
    return name === "" ? null : name;
  }
  return null;
}

export function toolExitMeaning(tool: string | null, exitCode: number): string | undefined {
  if (tool === null) return undefined;
  const meanings = TOOL_EXITS[tool];
  if (!meanings) return undefined;
  if (tool === "pylint" && exitCode > 0 && exitCode < 64) {
    // pylint's code is a bit mask: name every bit that is set.
    return Object.entries(meanings)
      .filter(([bit]) => (exitCode & Number(bit)) !== 0)
      .map(([, word]) => word)
      .join(", ");
  }
  return meanings[exitCode];
}
