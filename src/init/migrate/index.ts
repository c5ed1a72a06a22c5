import { ProjectFiles } from "../project-files.ts";
import type { Detection } from "../spec.ts";
import { fromHusky } from "./husky.ts";
import { fromLefthook } from "./lefthook.ts";
import { fromLintStaged } from "./lint-staged.ts";
import { fromPreCommit } from "./pre-commit.ts";

export const SOURCES = {
  lefthook: fromLefthook,
  "lint-staged": fromLintStaged,
  "pre-commit": fromPreCommit,
  husky: fromHusky,
} as const;

export type MigrationSource = keyof typeof SOURCES;

export function migrate(
  source: MigrationSource,
  root: string,
): Detection & { found: string | null } {
  const result = SOURCES[source](new ProjectFiles(root));
  const names = new Set<string>();
  for (const { callback } of result.proposals) {
    let name = callback.name;
    for (let i = 2; names.has(name); i++) name = `${callback.name}-${i}`;
    callback.name = name;
    names.add(name);
  }
  return {
    found: result.found,
    proposals: result.proposals,
    notes: result.notes,
  };
}
