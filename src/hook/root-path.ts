import { rootRelative } from "../match/root-relative.ts";

/** `path` (absolute or relative to `cwd`) relative to `root`, posix; null when outside or empty. */
export function pathInRoot(root: string, cwd: string, path: string): string | null {
  try {
    const rel = rootRelative(root, cwd, path);
    return rel === "" ? null : rel;
  } catch {
    return null;
  }
}
