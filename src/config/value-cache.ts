// The value a plain-data config script evaluated to (./plain-script.ts), kept for the next
// process: importing a TypeScript config is a large part of a hook call. Keyed by cpilot's
// version and the bytes of every module; kept in the user's private runtime folder, never in
// the project, where a committed cache could stand in for the config people read.
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, extname, join, relative, resolve } from "node:path";
import { sha1Hex } from "../platform/digest.ts";
import { runtimeDir } from "../platform/runtime-dir.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { readRegularBytes } from "../util/read-regular.ts";
import { VERSION } from "../version.ts";
import { plainGraph } from "./plain-script.ts";

const MAX_MODULE_BYTES = 1024 * 1024;

function entryPath(configPath: string): string | null {
  const dir = runtimeDir(process.env);
  if (dir === null) return null;
  return join(dir, "config-values", `${sha1Hex(resolve(configPath)).slice(0, 20)}.json`);
}

function graphOf(configPath: string, source: Uint8Array) {
  const hashes = new Map<string, string>();
  const graph = plainGraph(configPath, new TextDecoder().decode(source), (path) => {
    const bytes = readRegularBytes(path, MAX_MODULE_BYTES);
    if (bytes === null) return null;
    hashes.set(path, sha1Hex(bytes));
    return new TextDecoder().decode(bytes);
  });
  return { graph, hashes };
}

/** Cpilot's version and the bytes of the config and its own modules; null when not plain data. */
export function configValueKey(configPath: string, source: Uint8Array): string | null {
  const { graph, hashes } = graphOf(configPath, source);
  if ("problem" in graph) return null;
  const root = dirname(resolve(configPath));
  const parts = [VERSION, sha1Hex(source)];
  for (const module of graph.modules)
    parts.push(relative(root, module.path), hashes.get(module.path) ?? "");
  return sha1Hex(parts.join("\0"));
}

export function cachedConfigValue(configPath: string, key: string): unknown {
  const path = entryPath(configPath);
  if (path === null) return undefined;
  try {
    const entry = JSON.parse(readFileSync(path, "utf8")) as { key?: unknown; value?: unknown };
    return entry.key === key ? entry.value : undefined;
  } catch {
    return undefined; // none yet, or unreadable: import the config
  }
}

/** Why the value is not kept between processes, or null (for `cpilot doctor`). */
export function whyNotKept(configPath: string, source: Uint8Array, value: unknown): string | null {
  const { graph } = graphOf(configPath, source);
  if ("problem" in graph) return graph.problem;
  if (!isPlainData(value, 0)) return "its value holds more than JSON can (a function, say)";
  if (runtimeDir(process.env) === null)
    return "there is no private runtime folder (mode 700, yours)";
  return null;
}

let imported = 0;

/**
 * Keep `value` under `key` when it is plain data and every file of the key is unchanged. The
 * runtime reads an imported module once per process, so after the first import only a config
 * importing none of its own is kept.
 */
export function rememberConfigValue(configPath: string, key: string, value: unknown): void {
  imported += 1;
  if (!isPlainData(value, 0)) return;
  const path = entryPath(configPath);
  if (path === null) return;
  try {
    const source = readFileSync(configPath);
    if (configValueKey(configPath, source) !== key) return; // edited while it loaded
    if (imported > 1 && importsModules(configPath, source)) return;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileAtomic(path, JSON.stringify({ key, value }), { durable: false });
  } catch {
    // best effort: the next process imports the config again
  }
}

function importsModules(configPath: string, source: Uint8Array): boolean {
  const { graph } = graphOf(configPath, source);
  return !("problem" in graph) && graph.modules.length > 0;
}

/** JSON holds it exactly: no `undefined`, nothing deeper than 32. */
function isPlainData(value: unknown, depth: number): boolean {
  if (depth > 32) return false;
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isPlainData(item, depth + 1));
  if (typeof value !== "object") return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  return Object.values(value).every((item) => isPlainData(item, depth + 1));
}

const SCRIPT = new Set([".ts", ".mts", ".js", ".mjs"]);

/** Loading the config runs the user's code: a script whose value is not kept from an earlier load. */
export function configRunsCode(path: string): boolean {
  if (!SCRIPT.has(extname(path))) return false;
  try {
    const key = configValueKey(path, readFileSync(path));
    return key === null || cachedConfigValue(path, key) === undefined;
  } catch {
    return false; // unreadable: loading it reports that, no code runs
  }
}
