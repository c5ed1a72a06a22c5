import { compilePatterns } from "../match/pattern.ts";
import { isTypeScriptProject } from "./detect.ts";
import { ProjectFiles } from "./project-files.ts";
import type { Proposal } from "./spec.ts";

export interface FormatChoice {
  readonly format: "ts" | "json";
  readonly why: string;
}

const TS_CONFIG = "callbacks.config.ts";

/**
 * TypeScript for TypeScript projects, unless the project's linter or type checker would
 * check a root `callbacks.config.ts` and cannot resolve `import "cpilot"`: JSON then.
 */
export function chooseFormat(root: string, proposals: readonly Proposal[]): FormatChoice {
  if (!isTypeScriptProject(root)) return { format: "json", why: "not a TypeScript project" };
  const p = new ProjectFiles(root);
  if (p.has("node_modules/cpilot/package.json"))
    return { format: "ts", why: "a TypeScript project with cpilot in node_modules" };
  // Linters and type checkers (xo and biome lint too); formatters get the project's style,
  // and test runners in the background read the tests, not the config.
  const inScope = proposals.find(
    (x) =>
      (x.callback.fixes !== true || x.callback.name === "xo" || x.callback.name === "biome") &&
      x.callback.blocking !== false &&
      compilePatterns(x.callback.pattern).matches(TS_CONFIG),
  );
  if (inScope)
    return {
      format: "json",
      why: `${inScope.callback.name} checks root .ts files and cpilot is not in node_modules to give ${TS_CONFIG} its types; after installing it, \`cpilot init --format ts --force\``,
    };
  return { format: "ts", why: "a TypeScript project whose checks leave the root config alone" };
}
