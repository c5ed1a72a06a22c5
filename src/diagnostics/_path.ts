import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";

/** Where a parsed path is resolved: the run's working directory, inside the project root. */
export interface PathBase {
  /** Absolute project root. */
  readonly root: string;
  /** Absolute folder the tool ran in (paths it prints are relative to it). */
  readonly cwd: string;
}

/**
 * A path as a tool printed it, made root-relative with posix separators (`./src\a.ts` ->
 * `src/a.ts`); a path outside the root stays absolute, so it is never mistaken for a
 * project file.
 */
export function rootRelative(printed: string, base: PathBase): string {
  let p = printed.trim();
  if (p === "") return "";
  if (p.startsWith("file://")) p = decodeURIComponent(p.slice(7));
  p = p.replaceAll("\\", "/");
  const abs = isAbsolute(p) || /^[A-Za-z]:\//.test(p) ? p : resolve(base.cwd, p);
  const rel = relative(base.root, abs).replaceAll("\\", "/");
  if (rel === "") return ".";
  if (rel.startsWith("../") || rel === ".." || isAbsolute(rel)) {
    // Through a symlink to the project (a tool run on a linked path, macOS's /var): the
    // project's file, or the agent's edits and the baseline would not know it.
    const real = realInsideRoot(abs, base.root);
    return real ?? abs.replaceAll("\\", "/");
  }
  return rel;
}

/** `abs` made real and root-relative when it then lies in the (real) root; else null. */
function realInsideRoot(abs: string, root: string): string | null {
  let real: string;
  let realRoot: string;
  try {
    real = realpathSync(abs);
    realRoot = realpathSync(root);
  } catch {
    return null; // gone, or not a path at all
  }
  const rel = relative(realRoot, real).replaceAll("\\", "/");
  if (rel === "" || rel.startsWith("../") || rel === ".." || isAbsolute(rel)) return null;
  return rel;
}
