import { realpathSync } from "node:fs";

/** `path` with every link resolved, or `path` itself when it cannot be (it does not exist). */
export function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
