// Which configs a long-lived hook server may answer for. A fresh process loads the config
// fresh on every call; a server keeps imported modules. That is the same thing only for a
// config that is plain data: JSON or YAML, or a script that imports nothing but "cpilot",
// reads no environment and holds no functions. Anything else is answered by the hook call's
// own process, exactly as without a server: slower, never stale.
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { ConfigRefused } from "../config/load.ts";
import { scriptProblem } from "../config/plain-script.ts";

const DATA_FILES = new Set([".json", ".yaml", ".yml"]);
/** The first function found in a loaded config value (a run or hook written in code), or null. */
function functionIn(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === "function") return path || "the config";
  if (value === null || typeof value !== "object" || depth > 20) return null;
  for (const [key, child] of Object.entries(value)) {
    const found = functionIn(child, path ? `${path}.${key}` : key, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

/** The config guard of a hook server: ConfigRefused unless the config at `path` is plain data. */
export function assertServable(path: string, value: unknown): void {
  if (!DATA_FILES.has(extname(path))) {
    const problem = scriptProblem(readFileSync(path, "utf8"));
    if (problem !== null) throw new ConfigRefused(`${path}: ${problem}`);
  }
  const fn = functionIn(value, "");
  if (fn !== null) throw new ConfigRefused(`${path}: ${fn} is a function`);
}
