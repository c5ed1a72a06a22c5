import { existsSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_NAMES } from "../config/find.ts";
import { isTracked } from "../project/tracked.ts";
import { STATE_DIR } from "../util/state-layout.ts";

/**
 * A package's own `.cpilot/` (beside a config git tracks) holds cpilot's state for that
 * config, written by the hook itself: not the agent's edit. A folder merely named so,
 * beside no tracked config, stays the agent's: code could hide there.
 */
export function nestedStateFilter(root: string): (rel: string) => boolean {
  const known = new Map<string, boolean>();
  return (rel) => {
    const parts = rel.split("/");
    const at = parts.indexOf(STATE_DIR, 1);
    if (at < 1) return false;
    const folder = parts.slice(0, at).join("/");
    let own = known.get(folder);
    if (own === undefined) {
      own = CONFIG_NAMES.some(
        (name) => existsSync(join(root, folder, name)) && isTracked(root, `${folder}/${name}`),
      );
      known.set(folder, own);
    }
    return own;
  };
}
