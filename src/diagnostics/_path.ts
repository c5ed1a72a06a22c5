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
  if (rel.startsWith("../") || rel === ".." || isAbsolute(rel)) return abs.replaceAll("\\", "/");
  return rel;
}
