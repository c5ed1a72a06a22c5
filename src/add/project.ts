import { dirname, resolve } from "node:path";
import { loadProjectConfig } from "../config/load.ts";
import { readManaged } from "../config/managed.ts";
import type { TakenNames } from "./names.ts";

/**
 * The project root and the callback names already taken there. With no config file the
 * root is `cwd` and nothing is taken (only a dry run gets this far). A config that does
 * not load is an error: fix it before adding to it.
 */
export async function loadTakenNames(
  cwd: string,
  configPath: string | null,
): Promise<{ root: string; taken: TakenNames }> {
  if (configPath === null) return { root: resolve(cwd), taken: { config: [], managed: [] } };
  const config = await loadProjectConfig(cwd, configPath);
  const root = config.root || dirname(configPath);
  const managed = readManaged(root)
    .map((c) => (c as { name?: unknown })?.name)
    .filter((n): n is string => typeof n === "string");
  const own = config.callbacks.map((c) => c.name).filter((n) => !managed.includes(n));
  return { root, taken: { config: own, managed } };
}
