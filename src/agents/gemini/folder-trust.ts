/**
 * With folder trust on (the default), Gemini CLI reads no project settings, hooks
 * included, in an untrusted folder. The rule in ~/.gemini/trustedFolders.json (or
 * GEMINI_CLI_TRUSTED_FOLDERS_PATH) for the deepest folder holding the project decides.
 */
import { dirname, join, resolve, sep } from "node:path";
import { readJsonObject, readJsonObjectOrEmpty, writeJsonObject } from "../../util/json-file.ts";

export function geminiTrustFile(home: string, env: NodeJS.ProcessEnv): string {
  return env.GEMINI_CLI_TRUSTED_FOLDERS_PATH || join(home, ".gemini", "trustedFolders.json");
}

/** "off": folder trust is turned off. */
export function geminiTrusts(root: string, home: string, env: NodeJS.ProcessEnv): "off" | boolean {
  const user = readJsonObjectOrEmpty(join(home, ".gemini", "settings.json"));
  const security = user.security as Record<string, unknown> | undefined;
  const folderTrust = security?.folderTrust as Record<string, unknown> | undefined;
  if (folderTrust?.enabled === false) return "off";
  let best: { depth: number; trusted: boolean } | null = null;
  const target = resolve(root);
  for (const [path, rule] of Object.entries(readJsonObjectOrEmpty(geminiTrustFile(home, env)))) {
    const dir = resolve(rule === "TRUST_PARENT" ? dirname(path) : path);
    if (target !== dir && !target.startsWith(dir.endsWith(sep) ? dir : dir + sep)) continue;
    const depth = dir.length;
    if (best === null || depth >= best.depth) best = { depth, trusted: rule !== "DO_NOT_TRUST" };
  }
  return best?.trusted ?? false;
}

/** Keeps every other entry; a file that is not a JSON object is an error and stays as it was. Returns the file. */
export function trustGeminiFolder(root: string, home: string, env: NodeJS.ProcessEnv): string {
  const path = geminiTrustFile(home, env);
  writeJsonObject(path, { ...readJsonObject(path), [resolve(root)]: "TRUST_FOLDER" });
  return path;
}
