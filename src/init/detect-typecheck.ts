import type { ProjectFiles } from "./project-files.ts";
import { type ScriptTool, scopePatterns } from "./scripts.ts";
import type { Proposal } from "./spec.ts";

/** tsc (or tsgo, vue-tsc) as the scripts run it, else as tsconfig.json implies. */
export function detectTypecheck(
  p: ProjectFiles,
  runs: readonly ScriptTool[],
): Proposal | undefined {
  if (!p.has("tsconfig.json")) return undefined;
  const tsc = runs.filter((r) => r.tool === "tsc" || r.tool === "tsgo" || r.tool === "vue-tsc");
  // a solution whose projects reference each other builds to check: what the project builds
  const checker =
    tsc.find((r) => r.args.includes("--noEmit") || checksTypes(r)) ??
    (nestedSolution(p) ? tsc.find(buildsRoot) : undefined);
  const bin =
    checker?.tool ??
    (p.hasDepHereOrAtTop("typescript") || p.majorVersion("typescript") !== undefined
      ? "tsc"
      : undefined);
  if (bin === undefined) return undefined;
  // tsc's plain output is what cpilot parses; it has no machine format beside it.
  const solution = checker ? [] : solutionReferences(p);
  const args = checker ? checker.args : ["--noEmit", "-p", "."];
  // `tsc -b` builds project references (what dependents read from dist/): it emits by design
  const build = args.includes("-b") || args.includes("--build");
  if (!args.includes("--noEmit") && !build) args.push("--noEmit");
  const tsconfig = p.json("tsconfig.json") as { include?: unknown } | undefined;
  const include = Array.isArray(tsconfig?.include)
    ? tsconfig.include.filter((i): i is string => typeof i === "string")
    : [];
  const pattern =
    include.length > 0
      ? include.flatMap((i) => scopePatterns([i], ["ts", "tsx", "mts", "cts"]))
      : scopePatterns([], ["ts", "tsx", "mts", "cts"]);
  // a solution tsconfig checks nothing itself: each of its configs is checked, without building
  const run =
    solution.length > 0
      ? solution.map((ref) => `${p.localBin(bin)} --noEmit -p ${ref}`).join(" && ")
      : [p.localBin(bin), ...args].join(" ");
  return {
    why: checker
      ? `package.json script "${checker.script}" runs ${checker.tool}`
      : solution.length > 0
        ? `tsconfig.json, references ${solution.join(", ")}`
        : "tsconfig.json",
    callback: {
      name: "typecheck",
      description: "TypeScript types",
      pattern: [...pattern, ...(solution.length > 0 ? ["tsconfig*.json"] : ["tsconfig.json"])],
      run,
      timeout: 120,
      overlap: "replace",
      successMessage: "types OK",
    },
  };
}

function solutionReferences(p: ProjectFiles): string[] {
  const json = p.json("tsconfig.json") as
    | { files?: unknown; include?: unknown; references?: { path?: unknown }[] }
    | undefined;
  const empty = (v: unknown) => Array.isArray(v) && v.length === 0;
  if (!json || !Array.isArray(json.references) || !empty(json.files)) return [];
  if (json.include !== undefined && !empty(json.include)) return [];
  return json.references
    .map((r) => (typeof r?.path === "string" ? r.path.replace(/^\.\//, "") : ""))
    .filter((ref) => /^[\w.-]+\.json$/.test(ref) && p.has(ref));
}

/**
 * A script named for types (`typecheck`, `build:types`) checks this package unless its tsc is
 * pointed at a project in a folder below (`compile:types`: `tsc -b ./types/tsconfig.json`
 * builds the package named types, not this one).
 */
function checksTypes(r: ScriptTool): boolean {
  return (
    /type/i.test(r.script) && projectsOf(r.args).every((t) => !/\//.test(t.replace(/^\.\//, "")))
  );
}

/** The projects tsc is given: `-p x`, and with `-b` its positional arguments. */
function projectsOf(args: readonly string[]): string[] {
  const build = args.includes("-b") || args.includes("--build");
  return args.filter((a, i) => {
    const prev = args[i - 1];
    if (prev === "-p" || prev === "--project") return true;
    return build && !a.startsWith("-");
  });
}

/** `tsc -b` (or `--build`) over the root's tsconfig.json itself. */
function buildsRoot(r: ScriptTool): boolean {
  if (!r.args.includes("-b") && !r.args.includes("--build")) return false;
  if (r.args.some((a) => a === "-w" || a === "--watch")) return false;
  const targets = r.args.filter((a) => !a.startsWith("-"));
  return targets.every((t) => /^(\.\/)?(tsconfig\.json)?$|^\.$/.test(t));
}

/** tsconfig.json names no files and references projects in folders below it. */
function nestedSolution(p: ProjectFiles): boolean {
  const json = p.json("tsconfig.json") as
    | { files?: unknown; include?: unknown; references?: { path?: unknown }[] }
    | undefined;
  if (!json || !Array.isArray(json.references) || !Array.isArray(json.files)) return false;
  if (json.files.length > 0 || (Array.isArray(json.include) && json.include.length > 0))
    return false;
  return json.references.some(
    (r) => typeof r?.path === "string" && r.path.replace(/^\.\//, "").includes("/"),
  );
}
