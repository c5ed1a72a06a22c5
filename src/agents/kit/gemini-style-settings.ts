/**
 * `doctor --prove` for Gemini CLI and Qwen Code: the project settings copied without their
 * hooks, API-key sign-in to cpilot's model, telemetry and updates off. Returns the file.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isObject, type JsonObject, readJsonObjectOrEmpty } from "../../util/json-file.ts";

const sub = (o: JsonObject, key: string): JsonObject => {
  const v = o[key];
  return isObject(v) ? v : {};
};

export function copyGeminiStyleSettings(
  root: string,
  project: string,
  folder: ".gemini" | ".qwen",
  selectedType: string,
): string[] {
  const from = join(root, folder, "settings.json");
  const theirs = readJsonObjectOrEmpty(from);
  const { hooks: _theirHooks, ...rest } = theirs;
  const security = sub(rest, "security");
  const settings = {
    ...rest,
    security: { ...security, auth: { ...sub(security, "auth"), selectedType } },
    privacy: { ...sub(rest, "privacy"), usageStatisticsEnabled: false },
    telemetry: { ...sub(rest, "telemetry"), enabled: false },
    general: { ...sub(rest, "general"), disableAutoUpdate: true, disableUpdateNag: true },
  };
  mkdirSync(join(project, folder), { recursive: true });
  writeFileSync(join(project, folder, "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
  return Object.keys(theirs).length > 0 ? [from] : [];
}
