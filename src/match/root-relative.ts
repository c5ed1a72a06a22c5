import { realpathSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";
import { isInside } from "../util/contained-path.ts";
import { CpilotError } from "../util/errors.ts";
import { viaPathModule } from "../util/path-bytes.ts";

function realpathOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}

/**
 * `given` as a posix path relative to `root` ("" is the root). The last component is not
 * resolved, so a symlink keeps its own name.
 *
 * @throws CpilotError when the path is empty or outside `root`.
 */
export function rootRelative(root: string, cwd: string, given: string): string {
  // a name that is not UTF-8 keeps its bytes through node:path (see path-bytes.ts)
  return viaPathModule(given, (safe) => rootRelativeUtf8(root, cwd, safe)) as string;
}

export function pathInRoot(root: string, cwd: string, path: string): string | null {
  try {
    const rel = rootRelative(root, cwd, path);
    return rel === "" ? null : rel;
  } catch {
    return null;
  }
}

function rootRelativeUtf8(root: string, cwd: string, given: string): string {
  const abs = resolve(cwd, given);
  const top = resolve(root);
  let rel = isInside(top, abs) ? relative(top, abs) : null;
  if (rel === null) {
    // another spelling of the same place through a symlink (/tmp vs /private/tmp)
    const realTop = realpathOrNull(top);
    const realDir = realpathOrNull(dirname(abs));
    const real = realDir === null ? null : join(realDir, basename(abs));
    if (realTop !== null && real !== null && isInside(realTop, real)) rel = relative(realTop, real);
  }
  if (given === "" || given.includes("\0") || rel === null) {
    const why = rel === null ? `it is outside the project root ${root}` : "it is not a file path";
    throw new CpilotError(`Cannot check ${JSON.stringify(given)}: ${why}`, {
      hint: "pass files or directories inside the project, or run cpilot from the project that holds them",
    });
  }
  return rel.split(sep).join("/");
}
