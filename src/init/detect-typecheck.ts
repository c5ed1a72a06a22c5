import { JS_TS } from "./node-tools.ts";
import type { ProjectFiles } from "./project-files.ts";
import { type ScriptTool, scopePatterns } from "./scripts.ts";
import type { Proposal } from "./spec.ts";

/** tsc (or tsgo, vue-tsc) as the scripts run it, else as tsconfig.json implies. */
export function detectTypecheck(
  p: ProjectFiles,
  runs: readonly ScriptTool[],
): Proposal | undefined {
  if (!p.has("tsconfig.json")) return undefined;
  const checker = runs.find(
    (r) =>
      (r.tool === "tsc" || r.tool === "tsgo" || r.tool === "vue-tsc") &&
      (r.args.includes("--noEmit") || /type/i.test(r.script)),
  );
  const bin =
    checker?.tool ??
    (p.hasDep("typescript") || p.majorVersion("typescript") !== undefined ? "tsc" : undefined);
  if (bin === undefined) return undefined;
  // tsc's plain output (`file(line,col): error TS2322: …`, as it prints off a terminal) is
  // what cpilot parses; it has no machine format beside it.
  const args = checker ? checker.args : ["--noEmit", "-p", "."];
  // `tsc -b` builds project references (what dependents read from dist/); it emits by design
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
  return {
    why: checker ? `package.json script "${checker.script}" runs ${checker.tool}` : "tsconfig.json",
    callback: {
      name: "typecheck",
      description: "TypeScript types",
      pattern: [...pattern, "tsconfig.json"],
      run: [p.localBin(bin), ...args].join(" "),
      timeout: 120,
      overlap: "replace",
      successMessage: "types OK",
    },
  };
}

/** deno.json: deno fmt and deno lint on the files. */
export function detectDeno(p: ProjectFiles): Proposal[] {
  const config = p.first("deno.json", "deno.jsonc");
  if (!config) return [];
  // In a Deno project, deno fmt and lint are its tools. Beside a package.json, a deno.json
  // that only maps imports (for an editor) says nothing of formatting: they count when it
  // configures them or a task runs them.
  const json = (p.json(config) ?? {}) as { fmt?: unknown; lint?: unknown; tasks?: unknown };
  const tasks = JSON.stringify(json.tasks ?? {});
  const denoOnly = !p.has("package.json");
  const fmt = denoOnly || json.fmt !== undefined || /deno\s+fmt/.test(tasks);
  const lint = denoOnly || json.lint !== undefined || /deno\s+lint/.test(tasks);
  const found: Proposal[] = [
    {
      why: config,
      callback: {
        name: "deno-fmt",
        description: "format",
        pattern: scopePatterns([], [...JS_TS, "json", "jsonc", "md"]),
        run: ["deno", "fmt", "--quiet", "{files}"],
        timeout: 60,
        fixes: true,
      },
    },
    {
      why: config,
      callback: {
        name: "deno-lint",
        description: "lint",
        pattern: scopePatterns([], JS_TS),
        run: ["deno", "lint", "--quiet", "{files}"],
        timeout: 60,
      },
    },
  ];
  return found.filter((x) => (x.callback.name === "deno-fmt" ? fmt : lint));
}
