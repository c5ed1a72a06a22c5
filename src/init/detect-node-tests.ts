import { JS_TS } from "./node-tools.ts";
import type { ProjectFiles } from "./project-files.ts";
import { type ScriptTool, scopePatterns } from "./scripts.ts";
import type { Proposal } from "./spec.ts";

/**
 * vitest or jest when a package.json script runs it: the tests related to the edited files
 * (`vitest related`, `jest --findRelatedTests`), in the background.
 */
export function detectNodeTests(p: ProjectFiles, runs: readonly ScriptTool[]): Proposal[] {
  const runner = runs.find((r) => r.tool === "vitest" || r.tool === "jest");
  if (runner === undefined) return [];
  const bin = p.localBin(runner.tool);
  const run =
    runner.tool === "vitest"
      ? [bin, "related", "--run", "--passWithNoTests", "{files}"]
      : [bin, "--findRelatedTests", "--passWithNoTests", "{files}"];
  return [
    {
      why: `package.json script "${runner.script}" runs ${runner.tool}`,
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
