import { lstatSync, mkdirSync, readFileSync, rmdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomic } from "./atomic-write.ts";
import { CpilotError } from "./errors.ts";

export type JsonObject = Record<string, unknown>;

/** {} when missing or empty; invalid JSON is an error, never overwritten. */
export function readJsonObject(path: string): JsonObject {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new CpilotError(`Cannot read "${path}": ${(err as Error).message}`);
  }
  if (text.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CpilotError(
      `Cannot update "${path}": it is not valid JSON (${(err as Error).message})`,
      { hint: "fix the file by hand first; cpilot does not overwrite what it cannot read" },
    );
  }
  if (!isObject(value)) {
    throw new CpilotError(`Cannot update "${path}": it is not a JSON object`, {
      hint: "the file must hold one JSON object",
    });
  }
  return value;
}

/** {} when missing, unreadable or not an object: for a file read to learn from, never written back. */
export function readJsonObjectOrEmpty(path: string): JsonObject {
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

/** A symlinked file stays linked. */
export function writeJsonObject(path: string, value: JsonObject): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`, { throughSymlink: true });
}

/** After an uninstall, a settings file holding nothing is removed (and its emptied folder), so `git status` is as before. */
export function writeJsonObjectOrRemove(path: string, value: JsonObject): void {
  if (Object.keys(value).length > 0 || isLink(path)) {
    writeJsonObject(path, value);
    return;
  }
  rmSync(path, { force: true });
  try {
    rmdirSync(dirname(path));
  } catch {
    // not empty (the project's own agents, commands…), or not ours to remove: it stays
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
