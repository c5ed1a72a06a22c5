import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** Config file names, in the order they are preferred within one folder. */
export const CONFIG_NAMES = [
  "callbacks.config.ts",
  "callbacks.config.mts",
  "callbacks.config.js",
  "callbacks.config.mjs",
  "callbacks.config.json",
  "callbacks.config.yaml",
  "callbacks.config.yml",
] as const;

/** Walk up from `cwd` to the first folder holding a config file; null when none does. */
export function findConfig(cwd: string): string | null {
  let dir = resolve(cwd);
  for (;;) {
    for (const name of CONFIG_NAMES) {
      const candidate = join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * The root a command's config will have (the folder of `explicit`, else of the config
 * found from `cwd`), known before the config is loaded; null when there is no config file.
 * Work that needs only the root (git's listings) can start while the config loads.
 */
export function configRootAhead(cwd: string, explicit: string | undefined): string | null {
  const path = explicit === undefined ? findConfig(cwd) : resolve(cwd, explicit);
  // a folder given to --config is an error the load reports: no git started for its parent
  return path === null || !statSync(path, { throwIfNoEntry: false })?.isFile()
    ? null
    : resolve(dirname(path));
}
