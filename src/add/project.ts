import { dirname, resolve } from "node:path";
import { readManaged } from "../config/managed.ts";
import { loadProjectConfigSupervised } from "../config/supervised-load.ts";
import type { TakenNames } from "./names.ts";

/** With no config file the root is `cwd` and nothing is taken. A config that does not load is an error: fix it first. */
export async function loadTakenNames(
  cwd: string,
  configPath: string | null,
): Promise<{
  root: string;
  taken: TakenNames;
  existing: { readonly name: string; readonly run: unknown }[];
}> {
  if (configPath === null)
    return { root: resolve(cwd), taken: { config: [], managed: [] }, existing: [] };
  const config = await loadProjectConfigSupervised(cwd, configPath);
  const root = config.root || dirname(configPath);
  const managed = readManaged(root)
    .map((c) => (c as { name?: unknown })?.name)
    .filter((n): n is string => typeof n === "string");
  const own = config.callbacks.map((c) => c.name).filter((n) => !managed.includes(n));
  const existing = config.callbacks.map((c) => ({ name: c.name, run: c.run }));
  return { root, taken: { config: own, managed }, existing };
}
