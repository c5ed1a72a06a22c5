// A long-lived hook server keeps imported modules, so it answers only for a config that
// is plain data (JSON, YAML, or a script importing only "cpilot", reading no environment,
// holding no functions); anything else is answered by the call's own process.
import { readFileSync } from "node:fs";
import { extname } from "node:path";
import { ConfigRefused } from "../config/load.ts";
import { scriptProblem } from "../config/plain-script.ts";

const DATA_FILES = new Set([".json", ".yaml", ".yml"]);
function functionIn(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === "function") return path || "the config";
  if (value === null || typeof value !== "object" || depth > 20) return null;
  for (const [key, child] of Object.entries(value)) {
    const found = functionIn(child, path ? `${path}.${key}` : key, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

export function assertServable(path: string, value: unknown): void {
  if (!DATA_FILES.has(extname(path))) {
    const problem = scriptProblem(readFileSync(path, "utf8"));
    if (problem !== null) throw new ConfigRefused(`${path}: ${problem}`);
  }
  const fn = functionIn(value, "");
  if (fn !== null) throw new ConfigRefused(`${path}: ${fn} is a function`);
}
