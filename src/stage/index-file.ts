import { resolve } from "node:path";
import { join } from "./byte-name-fs.ts";

/** GIT_INDEX_FILE (as a commit's hook gets it), else the repository's own. */
export function indexFileOf(top: string, gitDir: string, env = process.env): string {
  return env.GIT_INDEX_FILE ? resolve(top, env.GIT_INDEX_FILE) : join(gitDir, "index");
}
