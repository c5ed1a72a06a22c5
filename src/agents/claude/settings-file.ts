import { type JsonObject, readJsonObject, writeJsonObject } from "../../util/json-file.ts";
import { addGroupedHooks, type GroupedHooks, removeGroupedHooks } from "../kit/grouped-hooks.ts";
import { type HooksBlock, isCpilotCommand } from "./hooks-config.ts";

/** {} when the file does not exist. Invalid JSON is an error, never overwritten. */
export const readSettings: (path: string) => JsonObject = readJsonObject;

/** Atomic, 2-space JSON like Claude Code writes it. */
export const writeSettings: (path: string, settings: JsonObject) => void = writeJsonObject;

/** Replaces older cpilot entries; everything else kept. */
export function addCpilotHooks(settings: JsonObject, ours: HooksBlock): JsonObject {
  return addGroupedHooks(settings, ours as unknown as GroupedHooks, isCpilotCommand);
}

export function removeCpilotHooks(settings: JsonObject): { settings: JsonObject; removed: number } {
  return removeGroupedHooks(settings, isCpilotCommand);
}
