/** Codex CLI: hooks in .codex/hooks.json (project or $CODEX_HOME), MCP in config.toml. */
import { homedir } from "node:os";
import { join } from "node:path";
import type { Agent } from "../contract.ts";
import { codexProtocol } from "./protocol.ts";

export const codex: Agent = {
  ...codexProtocol,
  name: "codex",
  displayName: "Codex CLI",
  hook: async () => (await import("./handle.ts")).handleCodexHook,
  installScopes: ["project", "user"],
  install: async (action, request) => {
    const [{ reportInstall }, { codexInstaller }] = await Promise.all([
      import("../kit/install-report.ts"),
      import("./install.ts"),
    ]);
    return reportInstall(codexProtocol, codexInstaller, action, request);
  },
  hookFiles: [".codex/hooks.json", ".codex/config.toml"],
  mcp: {
    configPath: (_root, env) =>
      join(env.CODEX_HOME || join(env.HOME || homedir(), ".codex"), "config.toml"),
    format: "toml",
    args: ["mcp"],
  },
  programs: ["codex"],
  isCommand: (name) => name === "codex",
  projectDir: ".codex",
  homeDir: (home) => join(home, ".codex"),
  hookPlaces: async (root, home, env) => {
    const [{ groupedHookPlace }, { codexHooksPath }] = await Promise.all([
      import("../kit/hook-places.ts"),
      import("./install.ts"),
    ]);
    return (["project", "user"] as const).map((scope) =>
      groupedHookPlace(codexHooksPath(scope, root, home, env), "codex"),
    );
  },
};
