import type { ResolvedConfig } from "../../config/resolve.ts";
import { isObject, type JsonObject } from "../../util/json-file.ts";
import { isCpilotHookCommand } from "../kit/hook-command.ts";

export const CURSOR_EVENTS = ["preToolUse", "postToolUse", "afterFileEdit"] as const;

export const isCursorCpilotCommand = (cmd: unknown): boolean => isCpilotHookCommand(cmd, "cursor");

/** Past the longest blocking callback, at least 600. */
export function cursorHookTimeoutSeconds(config: ResolvedConfig | null): number {
  let longest = 0;
  for (const cb of config?.callbacks ?? [])
    if (cb.blocking) longest = Math.max(longest, cb.timeoutMs);
  return Math.max(600, Math.ceil(longest / 1000) + 60);
}

function hooksOf(file: JsonObject): JsonObject {
  return isObject(file.hooks) ? file.hooks : {};
}

/** Flat lists: `{ command, timeout? }`. */
export function removeCursorHooks(file: JsonObject): { file: JsonObject; removed: number } {
  if (!isObject(file.hooks)) return { file, removed: 0 };
  const hooks: JsonObject = { ...hooksOf(file) };
  let removed = 0;
  for (const [event, list] of Object.entries(hooks)) {
    if (!Array.isArray(list)) continue;
    const kept = list.filter((h) => !isCursorCpilotCommand(isObject(h) ? h.command : undefined));
    if (kept.length === list.length) continue;
    removed += list.length - kept.length;
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  return removed === 0 ? { file, removed } : { file: { ...file, hooks }, removed };
}

/** Version 1, everything else kept. Idempotent. */
export function addCursorHooks(file: JsonObject, command: string, timeout: number): JsonObject {
  // failClosed: Cursor refuses the tool when the gate's hook cannot run, crashes or times out
  const entryOf = (event: string) =>
    event === "preToolUse" ? { command, timeout, failClosed: true } : { command, timeout };
  const hooks = hooksOf(file);
  const already = CURSOR_EVENTS.every((event) => {
    const list = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    const ours = list.filter((h) => isCursorCpilotCommand(isObject(h) ? h.command : undefined));
    return JSON.stringify(ours) === JSON.stringify([entryOf(event)]);
  });
  if (already && file.version !== undefined) return file;
  const base = removeCursorHooks(file).file;
  const next: JsonObject = { ...hooksOf(base) };
  for (const event of CURSOR_EVENTS) {
    const list = Array.isArray(next[event]) ? (next[event] as unknown[]) : [];
    next[event] = [...list, entryOf(event)];
  }
  return { version: 1, ...base, hooks: next };
}
