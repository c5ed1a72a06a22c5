/** Is cpilot wired into an agent's hook files, and with which commands (doctor, `cpilot run`). */
import { existsSync, readFileSync } from "node:fs";
import { unwrapFailClosed } from "../../hook/fail-closed-command.ts";
import { isObject, type JsonObject, readJsonObject } from "../../util/json-file.ts";
import type { HookPlace } from "../contract.ts";
import { hasGroupedHooks } from "./grouped-hooks.ts";
import { isCpilotHookCommand } from "./hook-command.ts";

export function cpilotCommandsIn(value: unknown, agent: string, out: string[] = []): string[] {
  if (typeof value === "string") {
    if (isCpilotHookCommand(value, agent)) out.push(value);
  } else if (Array.isArray(value)) for (const v of value) cpilotCommandsIn(v, agent, out);
  else if (typeof value === "object" && value !== null)
    for (const v of Object.values(value)) cpilotCommandsIn(v, agent, out);
  return out;
}

/** `failsOpen`: why its write gate would let a write through when cpilot is missing or crashes. */
export function jsonHookPlace(
  path: string,
  agent: string,
  wired: (json: JsonObject) => boolean,
  failsOpen: (json: JsonObject) => string | null = () => null,
): HookPlace {
  if (!existsSync(path)) return { path, exists: false, wired: false, commands: [] };
  try {
    const json = readJsonObject(path);
    const open = failsOpen(json);
    return {
      path,
      exists: true,
      wired: wired(json),
      commands: cpilotCommandsIn(json, agent),
      ...(open === null ? {} : { gateFailsOpen: open }),
    };
  } catch (err) {
    return { path, exists: true, wired: false, error: (err as Error).message, commands: [] };
  }
}

/** Claude Code's grouped schema. With `gateEvent`, cpilot's hook on that event must fail closed. */
export function groupedHookPlace(path: string, agent: string, gateEvent?: string): HookPlace {
  const ours = (cmd: unknown) => isCpilotHookCommand(cmd, agent);
  return jsonHookPlace(
    path,
    agent,
    (json) => hasGroupedHooks(json, ours),
    (json) => {
      if (gateEvent === undefined || !isObject(json.hooks)) return null;
      const open = cpilotCommandsIn(json.hooks[gateEvent], agent).some(
        (cmd) => unwrapFailClosed(cmd) === cmd,
      );
      return open
        ? `its ${gateEvent} hook lets a write through where cpilot is missing or crashes`
        : null;
    },
  );
}

/** `outdated`: how cpilot's file differs from what install writes now (null: it does not). */
export function pluginHookPlace(
  path: string,
  isOurs: (text: string) => boolean,
  command: (text: string) => string | null,
  outdated: (text: string) => string | null = () => null,
): HookPlace {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { path, exists: existsSync(path), wired: false, commands: [] };
  }
  const wired = isOurs(text);
  const line = wired ? command(text) : null;
  const differs = wired ? outdated(text) : null;
  return {
    path,
    exists: true,
    wired,
    commands: line === null ? [] : [line],
    ...(differs === null ? {} : { outdated: differs }),
  };
}
