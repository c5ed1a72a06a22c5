import { mkdirSync, readFileSync } from "node:fs";
import { dirname } from "node:path";
import { writeFileAtomic } from "../../util/atomic-write.ts";
import { CpilotError } from "../../util/errors.ts";
import { type HookGroup, type HooksBlock, isCpilotCommand } from "./hooks-config.ts";

type Settings = Record<string, unknown>;

/** A settings.json as an object ({} when the file does not exist). Invalid JSON is an error, never overwritten. */
export function readSettings(path: string): Settings {
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
      {
        hint: "fix the file by hand first; cpilot does not overwrite what it cannot read",
      },
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new CpilotError(`Cannot update "${path}": it is not a JSON object`, {
      hint: "Claude Code settings are one JSON object",
    });
  }
  return value as Settings;
}

/** Write settings atomically, 2-space JSON like Claude Code writes it. */
export function writeSettings(path: string, settings: Settings): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileAtomic(path, `${JSON.stringify(settings, null, 2)}\n`);
}

function hooksOf(settings: Settings): Record<string, unknown> {
  const hooks = settings.hooks;
  return typeof hooks === "object" && hooks !== null && !Array.isArray(hooks)
    ? (hooks as Record<string, unknown>)
    : {};
}

/** An event's groups without cpilot's hook entries; groups left empty by that are dropped. */
function withoutCpilot(groups: unknown): { kept: unknown[]; removed: number } {
  if (!Array.isArray(groups)) return { kept: [], removed: 0 };
  let removed = 0;
  const kept: unknown[] = [];
  for (const group of groups) {
    const entries = (group as Partial<HookGroup> | null)?.hooks;
    if (!Array.isArray(entries)) {
      kept.push(group);
      continue;
    }
    const others = entries.filter((h) => !isCpilotCommand((h as { command?: unknown })?.command));
    removed += entries.length - others.length;
    if (others.length === entries.length) kept.push(group);
    else if (others.length > 0) kept.push({ ...(group as object), hooks: others });
  }
  return { kept, removed };
}

/** Settings with cpilot's hooks (replacing any older cpilot entries); everything else kept as it was. */
export function addCpilotHooks(settings: Settings, ours: HooksBlock): Settings {
  const hooks: Record<string, unknown> = { ...hooksOf(settings) };
  for (const [event, groups] of Object.entries(hooks)) {
    const { kept, removed } = withoutCpilot(groups);
    if (removed > 0 && kept.length > 0) hooks[event] = kept;
    else if (removed > 0) delete hooks[event];
  }
  for (const [event, groups] of Object.entries(ours)) {
    const existing = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    hooks[event] = [...existing, ...groups];
  }
  return { ...settings, hooks };
}

/** Settings without cpilot's hooks, and how many hook entries were removed. */
export function removeCpilotHooks(settings: Settings): { settings: Settings; removed: number } {
  if (!("hooks" in settings)) return { settings, removed: 0 };
  const hooks: Record<string, unknown> = { ...hooksOf(settings) };
  let total = 0;
  for (const [event, groups] of Object.entries(hooks)) {
    const { kept, removed } = withoutCpilot(groups);
    if (removed === 0) continue;
    total += removed;
    if (kept.length > 0) hooks[event] = kept;
    else delete hooks[event];
  }
  if (total === 0) return { settings, removed: 0 };
  const next: Settings = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete next.hooks;
  return { settings: next, removed: total };
}
