/** Cursor (the cursor-agent CLI and the editor): hooks in .cursor/hooks.json. */
import { join } from "node:path";
import type { Agent } from "../contract.ts";
import { cursorProtocol } from "./protocol.ts";

/** Cursor's variable for the open project, expanded by Cursor in mcp.json args. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: Cursor's own syntax, not a template
const CURSOR_WORKSPACE = "${workspaceFolder}";

export const cursor: Agent = {
  ...cursorProtocol,
  name: "cursor",
  displayName: "Cursor",
  hook: async () => (await import("./handle.ts")).handleCursorHook,
  installScopes: ["project", "user"],
  install: async (action, request) => {
    const [{ reportInstall }, { cursorInstaller }] = await Promise.all([
      import("../kit/install-report.ts"),
      import("./install.ts"),
    ]);
    return reportInstall(cursorProtocol, cursorInstaller, action, request);
  },
  mcp: {
    configPath: (root) => join(root, ".cursor", "mcp.json"),
    format: "json",
    // Cursor may start servers outside the project; it expands ${workspaceFolder} in args.
    args: ["mcp", "--root", CURSOR_WORKSPACE],
  },
  programs: ["cursor-agent", "cursor"],
  isCommand: (name) => name === "cursor-agent" || name === "cursor",
  projectDir: ".cursor",
  homeDir: (home) => join(home, ".cursor"),
  writtenHooks: async () => {
    const { addCursorHooks } = await import("./hooks-file.ts");
    return addCursorHooks({}, "cpilot hook cursor", 600).hooks as Record<string, unknown>;
  },
  hookPlaces: async (root, home) => {
    const [{ jsonHookPlace }, { isCpilotHookCommand }, { isObject }, { cursorHooksPath }] =
      await Promise.all([
        import("../kit/hook-places.ts"),
        import("../kit/hook-command.ts"),
        import("../../util/json-file.ts"),
        import("./install.ts"),
      ]);
    // Cursor's hooks are flat lists per event, not Claude Code's groups.
    const wired = (json: Record<string, unknown>): boolean =>
      Object.values(isObject(json.hooks) ? json.hooks : {}).some(
        (list) =>
          Array.isArray(list) &&
          list.some((h) => isObject(h) && isCpilotHookCommand(h.command, "cursor")),
      );
    // without failClosed, Cursor lets the edit through when the gate's hook cannot run
    const failsOpen = (json: Record<string, unknown>): string | null => {
      const list = isObject(json.hooks) ? json.hooks.preToolUse : undefined;
      const open =
        Array.isArray(list) &&
        list.some(
          (h) => isObject(h) && isCpilotHookCommand(h.command, "cursor") && h.failClosed !== true,
        );
      return open ? "its preToolUse hook has no failClosed: true" : null;
    };
    return (["project", "user"] as const).map((scope) =>
      jsonHookPlace(cursorHooksPath(scope, root, home), "cursor", wired, failsOpen),
    );
  },
};
