import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

/** In the order they are preferred within one folder. */
export const CONFIG_NAMES = [
  "callbacks.config.ts",
  "callbacks.config.mts",
  "callbacks.config.js",
  "callbacks.config.mjs",
  "callbacks.config.json",
  "callbacks.config.yaml",
  "callbacks.config.yml",
] as const;

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

/** The root a command's config will have, known before it loads, so git's listings can start meanwhile; null without a config. */
export function configRootAhead(cwd: string, explicit: string | undefined): string | null {
  const path = explicit === undefined ? findConfig(cwd) : resolve(cwd, explicit);
  // a folder given to --config is an error the load reports: no git started for its parent
  return path === null || !statSync(path, { throwIfNoEntry: false })?.isFile()
    ? null
    : resolve(dirname(path));
}
