/** OpenCode: a generated plugin in .opencode/plugins/ (project or ~/.config/opencode). */
import { join } from "node:path";
import type { Agent } from "../contract.ts";
import { opencodeProtocol } from "./protocol.ts";

export const opencode: Agent = {
  ...opencodeProtocol,
  name: "opencode",
  displayName: "OpenCode",
  hook: async () => (await import("./handle.ts")).handleOpencodeHook,
  installScopes: ["project", "user"],
  install: async (action, request) => {
    const [{ reportInstall }, { opencodeInstaller, PLUGIN_REACH }] = await Promise.all([
      import("../kit/install-report.ts"),
      import("./install.ts"),
    ]);
    return reportInstall(PLUGIN_REACH, opencodeInstaller, action, request);
  },
  mcp: null,
  liveProof: async () => (await import("./live-proof.ts")).opencodeDriver,
  programs: ["opencode"],
  isCommand: (name) => name === "opencode",
  projectDir: ".opencode",
  homeDir: (home) => join(home, ".config", "opencode"),
  hookPlaces: async (root, home, env) => {
    const [
      { pluginHookPlace },
      { opencodePluginPath, pluginArgv },
      { PLUGIN_MARKER, pluginCommandLine },
      { pluginDrift },
    ] = await Promise.all([
      import("../kit/hook-places.ts"),
      import("./install.ts"),
      import("./plugin-source.ts"),
      import("./plugin-drift.ts"),
    ]);
    return (["project", "user"] as const).map((scope) => {
      const path = opencodePluginPath(scope, root, home, env);
      return pluginHookPlace(
        path,
        (text) => text.startsWith(PLUGIN_MARKER),
        pluginCommandLine,
        (text) => pluginDrift(path, text, pluginArgv({ scope, root })),
      );
    });
  },
};
