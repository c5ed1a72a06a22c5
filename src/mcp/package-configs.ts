import { dirname, join, relative, sep } from "node:path";
import { findConfig } from "../config/find.ts";
import type { ResolvedConfig } from "../config/resolve.ts";
import { loadNested } from "../hook/edits.ts";

/** A package below the project root whose own config judges the edits in its folder. */
export interface PackageConfig {
  /** Relative to the project root, no trailing slash. */
  readonly folder: string;
  /** Its config's path from the project root, as results name it. */
  readonly label: string;
  /** Or why it did not load, in one line: the package's writes are refused meanwhile. */
  readonly config: ResolvedConfig | string;
}

/** Each load of a script config may start a child to prove it loads: a few at a time. */
const LOADS_AT_ONCE = 4;

/** The configs of the packages in `folders` (packageConfigFolders), loaded as for an edit there, in that order. */
export async function loadPackageConfigs(
  root: string,
  folders: readonly string[],
): Promise<PackageConfig[]> {
  const out: PackageConfig[] = new Array(folders.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < folders.length) {
      const i = next++;
      const folder = folders[i] as string;
      const dir = join(root, folder);
      const config = await loadNested(dir);
      const path = typeof config === "string" ? findConfig(dir) : config.path;
      // one that is gone leaves the folder's name, never a parent's config
      const own = path !== null && dirname(path) === dir;
      const label = own ? relative(root, path).split(sep).join("/") : folder;
      out[i] = { folder, label, config };
    }
  };
  await Promise.all(Array.from({ length: Math.min(LOADS_AT_ONCE, folders.length) }, worker));
  return out;
}

/**
 * A package's folder (or config path) as the model reads it: quoted when it holds a line
 * break or another control character, so a folder's name cannot start a line of its own.
 */
export function shownPath(path: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are what is looked for
  return /[\u0000-\u001f\u007f\u0085\u2028\u2029]/.test(path) ? JSON.stringify(path) : path;
}
