/**
 * Copilot CLI runs a repository's hooks only in a folder it trusts (silently none in `-p`
 * mode). Trust is `trustedFolders` in `$COPILOT_HOME/config.json` (default ~/.copilot),
 * JSON with `//` comment lines on top.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, sep } from "node:path";
import { writeFileAtomic } from "../../util/atomic-write.ts";
import { isObject } from "../../util/json-file.ts";

export function copilotConfigPath(env: NodeJS.ProcessEnv): string {
  return join(env.COPILOT_HOME || join(env.HOME || homedir(), ".copilot"), "config.json");
}

function readConfig(path: string): { header: string; json: Record<string, unknown> } | null {
  if (!existsSync(path)) return { header: "", json: {} };
  const text = readFileSync(path, "utf8");
  const lines = text.split("\n");
  let i = 0;
  while (i < lines.length && /^\s*\/\//.test(lines[i] ?? "")) i++;
  const body = lines.slice(i).join("\n");
  try {
    const json: unknown = body.trim() === "" ? {} : JSON.parse(body);
    return isObject(json) ? { header: lines.slice(0, i).join("\n"), json } : null;
  } catch {
    return null;
  }
}

function covers(folder: string, root: string): boolean {
  const f = folder.endsWith(sep) ? folder.slice(0, -1) : folder;
  return root === f || root.startsWith(`${f}${sep}`);
}

/** null when config.json cannot be read. */
export function copilotTrusts(root: string, env: NodeJS.ProcessEnv): boolean | null {
  const config = readConfig(copilotConfigPath(env));
  if (config === null) return null;
  const folders = config.json.trustedFolders;
  return Array.isArray(folders) && folders.some((f) => typeof f === "string" && covers(f, root));
}

/** Keeps the rest of the file, its comment lines too. */
export function trustCopilotFolder(root: string, env: NodeJS.ProcessEnv): string | null {
  const path = copilotConfigPath(env);
  const config = readConfig(path);
  if (config === null) return null;
  const folders = Array.isArray(config.json.trustedFolders) ? config.json.trustedFolders : [];
  const json = { ...config.json, trustedFolders: [...folders, root] };
  mkdirSync(dirname(path), { recursive: true });
  const header = config.header === "" ? "" : `${config.header}\n`;
  writeFileAtomic(path, `${header}${JSON.stringify(json, null, 2)}\n`, { throughSymlink: true });
  return path;
}
