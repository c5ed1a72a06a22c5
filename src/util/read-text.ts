import { readFileSync } from "node:fs";

/** A file's text, or "" when it cannot be read (missing, a folder, no permission). */
export function readTextOrEmpty(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}
