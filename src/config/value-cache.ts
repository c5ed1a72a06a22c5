// The value a config script evaluated to, kept for the next process: importing a TypeScript
// config (transpile, then evaluate) is a large part of a hook call's cost, and a config that
// runs code is first loaded in a child process. Only scripts that are plain data qualify,
// with the modules of their own they import (./plain-script.ts), keyed by cpilot's version
// and the exact bytes of every one of them. The cache lives in the user's private runtime
// folder, never in the project: a cache committed to a repository must not stand in for
// the config people read there.
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, extname, join, relative, resolve } from "node:path";
import { sha1Hex } from "../platform/digest.ts";
import { runtimeDir } from "../platform/runtime-dir.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { readRegularBytes } from "../util/read-regular.ts";
import { VERSION } from "../version.ts";
import { plainGraph } from "./plain-script.ts";

/** A module a config imports larger than this is not read for the key: the value is not kept. */
const MAX_MODULE_BYTES = 1024 * 1024;

/** Where one config file's value is kept, or null without a private runtime folder. */
function entryPath(configPath: string): string | null {
  const dir = runtimeDir(process.env);
  if (dir === null) return null;
  return join(dir, "config-values", `${sha1Hex(resolve(configPath)).slice(0, 20)}.json`);
}

/** The config's graph, each module's bytes hashed as read (see plainGraph). */
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

/**
 * What a config's value is kept under: cpilot's version, the config's bytes and, for each
 * module of its own it imports, its path and bytes. Null when the value is not to be kept:
 * the script or one of those modules is not plain data.
 */
export function configValueKey(configPath: string, source: Uint8Array): string | null {
  const { graph, hashes } = graphOf(configPath, source);
  if ("problem" in graph) return null;
  const root = dirname(resolve(configPath));
  const parts = [VERSION, sha1Hex(source)];
  for (const module of graph.modules)
    parts.push(relative(root, module.path), hashes.get(module.path) ?? "");
  return sha1Hex(parts.join("\0"));
}

/** The value kept under `key` (see {@link configValueKey}), or undefined. */
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

/**
 * Why a config script's value is not kept between processes (imported on every call), or
 * null when it is. For `cpilot doctor`, and the rule {@link rememberConfigValue} applies.
 */
export function whyNotKept(configPath: string, source: Uint8Array, value: unknown): string | null {
  const { graph } = graphOf(configPath, source);
  if ("problem" in graph) return graph.problem;
  if (!isPlainData(value, 0)) return "its value holds more than JSON can (a function, say)";
  if (runtimeDir(process.env) === null)
    return "there is no private runtime folder (mode 700, yours)";
  return null;
}

/** Config scripts this process imported: a module they import is not imported again. */
let imported = 0;

/**
 * Keep `value`, which the config at `configPath` evaluated to in this process, under `key`
 * (taken before it was imported), when the value is plain data and every file of the key
 * is still as it was. A module of its own the config imports is read once per process by
 * the runtime: after the first config import, an edited one would not be seen in the value,
 * so only a config that imports none of its own is kept then.
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

/**
 * True when JSON holds `value` exactly: plain objects, arrays, strings, finite numbers,
 * booleans and null, no `undefined` (JSON would drop or change it), nothing deeper than 32.
 */
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

/**
 * True when loading the config at `path` runs the user's code: a script whose value is not
 * kept from an earlier load (plain-data scripts' are: see cachedConfigValue above).
 */
export function configRunsCode(path: string): boolean {
  if (!SCRIPT.has(extname(path))) return false;
  try {
    const key = configValueKey(path, readFileSync(path));
    return key === null || cachedConfigValue(path, key) === undefined;
  } catch {
    return false; // unreadable: loading it reports that, no code runs
  }
}
