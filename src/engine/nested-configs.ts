import { CONFIG_NAMES } from "../config/find.ts";
import type { FileChange } from "../model/batch.ts";
import { ownFiles } from "../project/not-own.ts";

/**
 * A folder below the root holding its own config: that config judges its files, not the
 * root's (the nearest config decides), so the root's callbacks leave them out.
 */
export const NESTED_CONFIG: readonly (readonly [string, string])[] = CONFIG_NAMES.map(
  (name) => [name, `its own ${name} judges its files`] as const,
);

/** The folders below `root` with their own config that hold some of `files`, outermost only. */
export function nestedConfigFolders(root: string, files: readonly FileChange[]): string[] {
  const { left } = ownFiles(root, files, (f) => f.path, NESTED_CONFIG);
  return [...left].filter(([, why]) => why.startsWith("its own ")).map(([folder]) => folder);
}
