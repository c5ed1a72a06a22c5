import { type JsonObject, readJsonObject, writeJsonObject } from "../../util/json-file.ts";
import { addGroupedHooks, type GroupedHooks, removeGroupedHooks } from "../kit/grouped-hooks.ts";
import { type HooksBlock, isCpilotCommand } from "./hooks-config.ts";

/** A settings.json as an object ({} when the file does not exist). Invalid JSON is an error, never overwritten. */
export const readSettings: (path: string) => JsonObject = readJsonObject;

/** Write settings atomically, 2-space JSON like Claude Code writes it. */
export const writeSettings: (path: string, settings: JsonObject) => void = writeJsonObject;

/** Settings with cpilot's hooks (replacing any older cpilot entries); everything else kept as it was. */
export function addCpilotHooks(settings: JsonObject, ours: HooksBlock): JsonObject {
  return addGroupedHooks(settings, ours as unknown as GroupedHooks, isCpilotCommand);
}

/** Settings without cpilot's hooks, and how many hook entries were removed. */
export function removeCpilotHooks(settings: JsonObject): { settings: JsonObject; removed: number } {
  return removeGroupedHooks(settings, isCpilotCommand);
}
