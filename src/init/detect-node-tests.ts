import { JS_TS } from "./node-tools.ts";
import type { ProjectFiles } from "./project-files.ts";
import { scriptTestRunner } from "./script-test-runner.ts";
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

/**
 * When a script runs it: vitest's and jest's tests related to the edited files, else the
 * project's own test command (ava, mocha, tap, uvu, node --test, bun test), in the background.
 */
export function detectNodeTests(p: ProjectFiles, runs: readonly ScriptTool[]): Proposal[] {
  const runner = runs.find((r) => r.tool === "vitest" || r.tool === "jest") ?? configured(p);
  if (runner === undefined) return scriptTests(p);
  const bin = p.localCommand(runner.tool);
  const run =
    runner.tool === "vitest"
      ? [...bin, "related", "--run", "--passWithNoTests", "{files}"]
      : [...bin, "--findRelatedTests", "--passWithNoTests", "{files}"];
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

/** No mode runs only the tests an edit reaches: the whole command, as the script runs it. */
function scriptTests(p: ProjectFiles): Proposal[] {
  const script = scriptTestRunner(p);
  const found =
    script === undefined
      ? configuredRunner(p)
      : {
          ...script,
          why: `package.json script "${script.script}" runs ${script.label}`,
        };
  if (found === undefined) return [];
  return [
    {
      why: found.why,
      callback: {
        name: found.name,
        description: "the project's tests, in the background",
        pattern: scopePatterns([], JS_TS),
        run: found.run,
        timeout: 600,
        blocking: false,
        overlap: "replace",
      },
    },
  ];
}

const RUNNER_CONFIGS = {
  ava: ["ava.config.js", "ava.config.cjs", "ava.config.mjs"],
  mocha: [
    ".mocharc.js",
    ".mocharc.cjs",
    ".mocharc.yaml",
    ".mocharc.yml",
    ".mocharc.json",
    ".mocharc.jsonc",
  ],
  tap: [".taprc"],
} as const;

/** No script names it, its config does (`.mocharc.yml`, ava's key in package.json). */
function configuredRunner(p: ProjectFiles): { name: string; run: string; why: string } | undefined {
  for (const name of ["ava", "mocha", "tap"] as const) {
    const inPackage = name === "ava" && (p.packageJson() as { ava?: unknown }).ava !== undefined;
    const config =
      p.first(...RUNNER_CONFIGS[name]) ?? (inPackage ? `"ava" in package.json` : undefined);
    if (config !== undefined && p.hasDepHereOrAtTop(name))
      return { name, run: p.localBin(name), why: `${config}, ${name} a dependency of the project` };
  }
  return undefined;
}
