import { existsSync } from "node:fs";
import { join } from "node:path";
import { runGit, splitNul } from "../match/git.ts";
import { NO_WORKSPACE_LISTS_IT, type ProjectShape } from "../project/packages.ts";
import { NODE_TOOLS } from "./node-tools.ts";
import type { Proposal } from "./spec.ts";

/** The per-package linters a package beside the root can run from its own folder. */
const LINTERS = new Set(["eslint", "oxlint", "xo"]);

const NOT_CODE = new Set([
  "test",
  "tests",
  "testdata",
  "fixtures",
  "__fixtures__",
  "examples",
  "example",
  "node_modules",
]);

/**
 * npm packages beside the root that no workspace lists, in a project with no workspaces:
 * a runner script (`node build/bin/all.js run lint`) runs each one's scripts in its own
 * folder, where its linter config reads paths relative to it. Tracked, and not test data.
 */
export function sideBySidePackages(root: string, shape: ProjectShape): string[] {
  if (shape.packages.some((p) => p.kind === "node" && p.dir !== "")) return [];
  const dirs = shape.left
    .filter((l) => l.kind === "node" && l.why === NO_WORKSPACE_LISTS_IT)
    .map((l) => l.dir)
    .filter((d) => !d.split("/").some((part) => NOT_CODE.has(part)));
  if (dirs.length === 0) return [];
  // one fixed glob whatever the count of folders, none of whose names is read as a pattern
  const r = runGit(root, ["ls-files", "-z", "--", ":(glob)**/package.json"], {
    GIT_LITERAL_PATHSPECS: "0",
  });
  const tracked = new Set(r.ok ? splitNul(r.stdout) : []);
  return dirs.filter((d) => tracked.has(`${d}/package.json`));
}

/** Its linters that one of its package.json scripts runs, with that linter's config in its folder. */
export function ownLinters(root: string, dir: string, found: readonly Proposal[]): Proposal[] {
  return found
    .filter((p) => p.ranBy === "script" && LINTERS.has(p.callback.name))
    .filter((p) => {
      const tool = NODE_TOOLS.find((t) => t.name === p.callback.name);
      return tool?.configs.some((c) => existsSync(join(root, dir, c))) === true;
    })
    .map((p) => ({
      ...p,
      why: `${p.why} in its own folder (an npm package beside the root, no workspace lists it)`,
    }));
}
