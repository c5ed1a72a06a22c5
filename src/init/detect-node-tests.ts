import { JS_TS } from "./node-tools.ts";
import type { ProjectFiles } from "./project-files.ts";
import { type ScriptTool, scopePatterns } from "./scripts.ts";
import type { Proposal } from "./spec.ts";

const CONFIGS = {
  vitest: ["vitest.config.ts", "vitest.config.mts", "vitest.config.js", "vitest.config.mjs"],
  jest: ["jest.config.ts", "jest.config.js", "jest.config.cjs", "jest.config.mjs"],
} as const;

/** No script names it, its config does (an nx project's vitest.config.ts). */
function configured(p: ProjectFiles): ScriptTool | undefined {
  for (const tool of ["vitest", "jest"] as const) {
    const config = p.first(...CONFIGS[tool]);
    if (config !== undefined && p.hasDepHereOrAtTop(tool))
      return { tool, script: "", args: [config] };
  }
  return undefined;
}

/** When a script runs it: the tests related to the edited files, in the background. */
export function detectNodeTests(p: ProjectFiles, runs: readonly ScriptTool[]): Proposal[] {
  const runner = runs.find((r) => r.tool === "vitest" || r.tool === "jest") ?? configured(p);
  if (runner === undefined) return [];
  const bin = p.localBin(runner.tool);
  const run =
    runner.tool === "vitest"
      ? [bin, "related", "--run", "--passWithNoTests", "{files}"]
      : [bin, "--findRelatedTests", "--passWithNoTests", "{files}"];
  return [
    {
      why:
        runner.script === ""
          ? `${runner.args[0]}, ${runner.tool} a dependency of the project`
          : `package.json script "${runner.script}" runs ${runner.tool}`,
      callback: {
        name: runner.tool,
        description: "the tests of the edited files, in the background",
        pattern: scopePatterns([], JS_TS),
        run,
        timeout: 600,
        blocking: false,
        overlap: "replace",
      },
    },
  ];
}
