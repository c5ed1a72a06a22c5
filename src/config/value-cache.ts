// The value a config script evaluated to, kept for the next process: importing a TypeScript
// config (transpile, then evaluate) is a large part of a hook call's cost. Only scripts that
// are plain data qualify (./plain-script.ts), keyed by cpilot's version and the exact
// source bytes. The cache lives in the user's private runtime folder, never in the project:
// a cache committed to a repository must not stand in for the config people read there.
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, extname, join, resolve } from "node:path";
import { sha1Hex } from "../platform/digest.ts";
import { runtimeDir } from "../platform/runtime-dir.ts";
import { writeFileAtomic } from "../util/atomic-write.ts";
import { VERSION } from "../version.ts";
import { scriptProblem } from "./plain-script.ts";

/** Where one config file's value is kept, or null without a private runtime folder. */
function entryPath(configPath: string): string | null {
  const dir = runtimeDir(process.env);
  if (dir === null) return null;
  return join(dir, "config-values", `${sha1Hex(resolve(configPath)).slice(0, 20)}.json`);
}

function entryKey(source: Uint8Array): string {
  return sha1Hex(`${VERSION}\0${sha1Hex(source)}`);
}

/** The value this exact source evaluated to before, or undefined. */
export function cachedConfigValue(configPath: string, source: Uint8Array): unknown {
  const path = entryPath(configPath);
  if (path === null) return undefined;
  try {
    const entry = JSON.parse(readFileSync(path, "utf8")) as { key?: unknown; value?: unknown };
    return entry.key === entryKey(source) ? entry.value : undefined;
  } catch {
    return undefined; // none yet, or unreadable: import the config
  }
}

/**
 * Why a config script's value is not kept between processes (imported on every call), or
 * null when it is. For `cpilot doctor`, and the rule {@link rememberConfigValue} applies.
 */
export function whyNotKept(source: Uint8Array, value: unknown): string | null {
  const problem = notPlain(source, value);
  if (problem !== null) return problem;
  if (runtimeDir(process.env) === null)
    return "there is no private runtime folder (mode 700, yours)";
  return null;
}

/** Why the source or its value is not plain data, or null when both are. */
function notPlain(source: Uint8Array, value: unknown): string | null {
  const problem = scriptProblem(new TextDecoder().decode(source));
  if (problem !== null) return problem;
  return isPlainData(value, 0) ? null : "its value holds more than JSON can (a function, say)";
}

/** Keep `value` for the next process, when the source is plain data and so is the value. */
export function rememberConfigValue(configPath: string, source: Uint8Array, value: unknown): void {
  if (notPlain(source, value) !== null) return;
  const path = entryPath(configPath);
  if (path === null) return;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    writeFileAtomic(path, JSON.stringify({ key: entryKey(source), value }), { durable: false });
  } catch {
    // best effort: the next process imports the config again
  }
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
 * kept from an earlier load (plain-data scripts are: see cachedConfigValue above).
 */
export function configRunsCode(path: string): boolean {
  if (!SCRIPT.has(extname(path))) return false;
  try {
    return cachedConfigValue(path, readFileSync(path)) === undefined;
  } catch {
    return false; // unreadable: loading it reports that, no code runs
  }
}
