import { realpathSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";

export type Containment =
  | { ok: true; absolute: string; relative: string }
  | { ok: false; reason: string };

/** True when `child` is `parent` or below it (both absolute, normalized). */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/** realpath of the deepest existing ancestor of `path`, plus the part that does not exist yet. */
function realpathOfExisting(path: string): string {
  let current = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return resolve(realpathSync(current), ...rest.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      rest.push(current.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      current = parent;
    }
  }
}

/**
 * Resolve `path` (relative to `root`, or absolute) and check that it stays inside `root`,
 * also after following symlinks. Used by every surface that writes for an agent.
 */
export function containPath(root: string, path: string): Containment {
  if (path.includes("\0")) return { ok: false, reason: "the path contains a NUL byte" };
  const realRoot = realpathOfExisting(resolve(root));
  const absolute = resolve(root, path);
  if (!isInside(resolve(root), absolute) && !isInside(realRoot, absolute)) {
    return { ok: false, reason: `it resolves outside the project root ${root}` };
  }
  const real = realpathOfExisting(absolute);
  if (!isInside(realRoot, real)) {
    return { ok: false, reason: `it leads through a symlink to ${real}, outside the project root` };
  }
  const rel = relative(realRoot, real).split(sep).join("/");
  return { ok: true, absolute, relative: rel };
}
