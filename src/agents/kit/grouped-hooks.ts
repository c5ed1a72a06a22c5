import { isObject, type JsonObject } from "../../util/json-file.ts";

/** `{ <Event>: [{ matcher?, hooks: [{ type: "command", command, timeout? }] }] }`, shared by Claude Code, Gemini CLI and Codex. */
export type GroupedHooks = Record<string, JsonObject[]>;

/** Groups left empty are dropped. */
function withoutOurs(
  groups: unknown,
  ours: (cmd: unknown) => boolean,
): { kept: unknown[]; removed: number } {
  if (!Array.isArray(groups)) return { kept: [], removed: 0 };
  let removed = 0;
  const kept: unknown[] = [];
  for (const group of groups) {
    const entries = isObject(group) ? group.hooks : undefined;
    if (!Array.isArray(entries)) {
      kept.push(group);
      continue;
    }
    const others = entries.filter((h) => !ours(isObject(h) ? h.command : undefined));
    removed += entries.length - others.length;
    if (others.length === entries.length) kept.push(group);
    else if (others.length > 0) kept.push({ ...(group as JsonObject), hooks: others });
  }
  return { kept, removed };
}

function hooksOf(settings: JsonObject): JsonObject {
  return isObject(settings.hooks) ? settings.hooks : {};
}

export function removeGroupedHooks(
  settings: JsonObject,
  ours: (cmd: unknown) => boolean,
): { settings: JsonObject; removed: number } {
  if (!isObject(settings.hooks)) return { settings, removed: 0 };
  const hooks: JsonObject = { ...hooksOf(settings) };
  let total = 0;
  for (const [event, groups] of Object.entries(hooks)) {
    const { kept, removed } = withoutOurs(groups, ours);
    if (removed === 0) continue;
    total += removed;
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  if (total === 0) return { settings, removed: 0 };
  const next: JsonObject = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete next.hooks;
  return { settings: next, removed: total };
}

/** Older cpilot entries replaced, everything else kept. */
export function addGroupedHooks(
  settings: JsonObject,
  add: GroupedHooks,
  ours: (cmd: unknown) => boolean,
): JsonObject {
  if (sameOurs(settings, add, ours)) return settings;
  const base = removeGroupedHooks(settings, ours).settings;
  const hooks: JsonObject = { ...hooksOf(base) };
  for (const [event, groups] of Object.entries(add)) {
    const existing = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    hooks[event] = [...existing, ...groups];
  }
  return { ...base, hooks };
}

export function hasGroupedHooks(settings: JsonObject, ours: (cmd: unknown) => boolean): boolean {
  return removeGroupedHooks(settings, ours).removed > 0;
}

/** Nothing to do. */
function sameOurs(
  settings: JsonObject,
  add: GroupedHooks,
  ours: (cmd: unknown) => boolean,
): boolean {
  const hooks = hooksOf(settings);
  const events = new Set([...Object.keys(hooks), ...Object.keys(add)]);
  for (const event of events) {
    const groups = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    const mine = groups.filter(
      (g) =>
        isObject(g) &&
        Array.isArray(g.hooks) &&
        g.hooks.some((h) => ours(isObject(h) ? h.command : undefined)),
    );
    if (JSON.stringify(mine) !== JSON.stringify(add[event] ?? [])) return false;
  }
  return true;
}
