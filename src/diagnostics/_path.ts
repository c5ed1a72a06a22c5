import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";

export interface PathBase {
  readonly root: string;
  /** Paths the tool prints are relative to it. */
  readonly cwd: string;
}

/** A printed path made root-relative and posix; a path outside the root stays absolute, never taken for a project file. */
export function rootRelative(printed: string, base: PathBase): string {
  let p = printed.trim();
  if (p === "") return "";
  if (p.startsWith("file://")) p = decodeURIComponent(p.slice(7));
  p = p.replaceAll("\\", "/");
  const abs = isAbsolute(p) || /^[A-Za-z]:\//.test(p) ? p : resolve(base.cwd, p);
  const rel = relative(base.root, abs).replaceAll("\\", "/");
  if (rel === "") return ".";
  if (rel.startsWith("../") || rel === ".." || isAbsolute(rel)) {
    // Through a symlink to the project (macOS's /var): the project's file, or the agent's edits
    // and the baseline would not know it.
    const real = realInsideRoot(abs, base.root);
    return real ?? abs.replaceAll("\\", "/");
  }
  return rel;
}

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
