import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomic } from "../../util/atomic-write.ts";
import { CpilotError } from "../../util/errors.ts";

export type EntryAction = "created" | "updated" | "unchanged" | "removed" | "absent";

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function read(path: string): { value: Json; indent: string | number; existed: boolean } {
  if (!existsSync(path)) return { value: {}, indent: 2, existed: false };
  const text = readFileSync(path, "utf8");
  if (text.trim() === "") return { value: {}, indent: 2, existed: true };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CpilotError(
      `Cannot update "${path}": it is not plain JSON (${(err as Error).message})`,
      {
        hint: "fix the file (comments are not supported here), or add the cpilot entry by hand",
      },
    );
  }
  if (!isObject(value)) {
    throw new CpilotError(`Cannot update "${path}": expected a JSON object at the top`, {
      hint: "fix the file, or add the cpilot entry by hand",
    });
  }
  const indent = /^\{\r?\n([ \t]+)"/.exec(text)?.[1] ?? 2;
  return { value, indent, existed: true };
}

function servers(path: string, value: Json): Json {
  const found = value.mcpServers;
  if (found === undefined) return {};
  if (!isObject(found)) {
    throw new CpilotError(`Cannot update "${path}": "mcpServers" is not an object`, {
      hint: "fix the file, or add the cpilot entry by hand",
    });
  }
  return found;
}

function write(path: string, value: Json, indent: string | number): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, `${JSON.stringify(value, null, indent)}\n`, { throughSymlink: true });
}

/** Keeps every other key and server, and keys the user added to this entry. Idempotent. */
export function upsertJsonServer(path: string, name: string, entry: Json): EntryAction {
  const { value, indent, existed } = read(path);
  const all = servers(path, value);
  const current = all[name];
  const next = { ...(isObject(current) ? current : {}), ...entry };
  if (isObject(current) && JSON.stringify(current) === JSON.stringify(next)) return "unchanged";
  write(path, { ...value, mcpServers: { ...all, [name]: next } }, indent);
  return existed ? "updated" : "created";
}

/** An emptied `mcpServers` goes too, and a file left as `{}` is deleted (it held only cpilot's entry). */
export function removeJsonServer(path: string, name: string): EntryAction {
  if (!existsSync(path)) return "absent";
  const { value, indent } = read(path);
  const all = servers(path, value);
  if (!(name in all)) return "absent";
  const { [name]: _removed, ...rest } = all;
  const next: Json = { ...value, mcpServers: rest };
  if (Object.keys(rest).length === 0) delete next.mcpServers;
  if (Object.keys(next).length === 0) rmSync(path);
  else write(path, next, indent);
  return "removed";
}
