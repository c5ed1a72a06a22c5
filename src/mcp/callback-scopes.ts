import type { ResolvedConfig } from "../config/resolve.ts";
import { packageConfigFolders } from "../engine/nested-configs.ts";
import { loadPackageConfigs, shownPath } from "./package-configs.ts";
import type { ProjectState } from "./project.ts";

/** A config whose callbacks a tool acts on: the project's own (folder "") or a package's. */
export interface Scope {
  /** Relative to the project root; "" for the project's own config. */
  readonly folder: string;
  readonly config: ResolvedConfig;
}

/** How a tool names a scope to the agent. */
export function scopeName(folder: string): string {
  return folder === "" ? "the project's own config" : shownPath(folder);
}

/** The folder the agent named: "." (or "") for the project's own, else a package's, as callback_list names it. */
export function packageFolder(given: string): string {
  const trimmed = given.trim().replace(/^\.\//, "").replace(/\/+$/, "");
  return trimmed === "." ? "" : trimmed;
}

/**
 * The configs a tool may act on: the project's own when it loads, then each package's
 * that loads; or, with `only`, that one config, else why not (a `Cannot ...` message).
 */
export async function callbackScopes(
  root: string,
  state: ProjectState,
  only: string | undefined,
): Promise<Scope[] | string> {
  const folders = packageConfigFolders(root);
  if (only === "") {
    if (state.kind === "ok") return [{ folder: "", config: state.config }];
    return state.kind === "none"
      ? "Cannot use the project's own callbacks: it has no config of its own"
      : `Cannot use the project's own callbacks: its config does not load:\n${state.error}`;
  }
  if (only !== undefined && !folders.includes(only)) {
    const known =
      folders.slice(0, 10).map(shownPath).join(", ") + (folders.length > 10 ? ", …" : "");
    return `Cannot use the callbacks of package ${JSON.stringify(only)}: no config of its own judges that folder\nhint: packages with their own config: ${known || "(none)"}; "." names the project's own`;
  }
  const scopes: Scope[] = [];
  if (only === undefined && state.kind === "ok") scopes.push({ folder: "", config: state.config });
  for (const pkg of await loadPackageConfigs(root, only === undefined ? folders : [only])) {
    if (typeof pkg.config !== "string") scopes.push({ folder: pkg.folder, config: pkg.config });
    else if (only !== undefined)
      return `Cannot use the callbacks of package ${JSON.stringify(only)}: its config does not load: ${pkg.config}\nhint: writes there are refused until it is fixed`;
  }
  return scopes;
}
