import { join } from "node:path";
import { isObject, readJsonObject } from "../../util/json-file.ts";
import { isCpilotHookCommand } from "./hook-command.ts";

/** When installed, Cursor's own call answers its edits: other agents' hooks it runs leave them alone. */
export function cpilotInCursorHooks(roots: readonly string[], home: string | undefined): boolean {
  const files = [...roots, ...(home ? [home] : [])].map((dir) =>
    join(dir, ".cursor", "hooks.json"),
  );
  return files.some((file) => {
    try {
      const hooks = readJsonObject(file).hooks;
      return (
        isObject(hooks) &&
        Object.values(hooks).some(
          (list) =>
            Array.isArray(list) &&
            list.some((h) => isObject(h) && isCpilotHookCommand(h.command, "cursor")),
        )
      );
    } catch {
      return false;
    }
  });
}
