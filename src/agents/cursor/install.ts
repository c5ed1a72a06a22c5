import { join } from "node:path";
import {
  isObject,
  readJsonObject,
  writeJsonObject,
  writeJsonObjectOrRemove,
} from "../../util/json-file.ts";
import type { AgentInstaller } from "../kit/agent-installer.ts";
import { agentHookCommand, hookPlace } from "../kit/hook-command.ts";
import {
  addCursorHooks,
  CURSOR_EVENTS,
  cursorHookTimeoutSeconds,
  removeCursorHooks,
} from "./hooks-file.ts";
import { cursorProtocol } from "./protocol.ts";

export function cursorHooksPath(scope: "project" | "user", root: string, home: string): string {
  return join(scope === "user" ? home : root, ".cursor", "hooks.json");
}

export const cursorInstaller: AgentInstaller = (action, ctx) => {
  const path = cursorHooksPath(ctx.scope, ctx.root, ctx.home);
  const before = readJsonObject(path);
  if (action === "uninstall") {
    const { file, removed } = removeCursorHooks(before);
    // Only the version left: nothing of the project's, so the file (and an empty .cursor/) goes.
    const bare = Object.entries(file).every(
      ([key, value]) => key === "version" || (key === "hooks" && isEmptyObject(value)),
    );
    if (removed > 0 && bare && ctx.scope === "project") writeJsonObjectOrRemove(path, {});
    else if (removed > 0) writeJsonObject(path, file);
    return {
      path,
      changed: removed > 0,
      lines: [
        removed > 0
          ? `removed ${removed} cpilot hook${removed === 1 ? "" : "s"}`
          : "no cpilot hooks: nothing changed",
      ],
    };
  }
  const command = agentHookCommand("cursor", cursorProtocol, hookPlace(ctx));
  const timeout = cursorHookTimeoutSeconds(ctx.config);
  const after = addCursorHooks(before, command, timeout);
  const changed = JSON.stringify(after) !== JSON.stringify(before);
  if (changed) writeJsonObject(path, after);
  return {
    path,
    changed,
    lines: changed
      ? [
          `added hooks for ${CURSOR_EVENTS.join(", ")}`,
          `  command: ${command} (timeout ${timeout} s)`,
        ]
      : ["hooks already there: nothing changed"],
  };
};

function isEmptyObject(value: unknown): boolean {
  return isObject(value) && Object.keys(value).length === 0;
}
