/**
 * Variables the checkers themselves read (build tags and flags, toolchains, interpreters,
 * virtualenvs): a result found under other values is another tool's result. Names alone:
 * the variables an agent or a terminal adds of its own stay out, so the agent's results
 * still replay in the pre-commit hook.
 */
const PREFIXES = [
  "GO",
  "CGO_",
  "CARGO",
  "RUST",
  "NODE_",
  "TS_NODE_",
  "PYTHON",
  "MYPY",
  "RUFF_",
  "ESLINT",
  "BIOME_",
  "PRETTIER",
  "DENO_",
  "JAVA_",
  "GRADLE_",
];
const NAMES = new Set([
  "VIRTUAL_ENV",
  "CONDA_PREFIX",
  "CC",
  "CXX",
  "CFLAGS",
  "CXXFLAGS",
  "CPPFLAGS",
  "LDFLAGS",
  "PKG_CONFIG_PATH",
]);

/** Those of the process's variables that are set, sorted by name. */
export function toolEnv(env: NodeJS.ProcessEnv = process.env): [string, string][] {
  const out: [string, string][] = [];
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && (NAMES.has(name) || PREFIXES.some((p) => name.startsWith(p))))
      out.push([name, value]);
  return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
