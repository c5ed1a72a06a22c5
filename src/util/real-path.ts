import { realpathSync } from "node:fs";

export function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
