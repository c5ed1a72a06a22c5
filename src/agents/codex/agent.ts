/** Codex CLI: hooks in .codex/hooks.json (project or $CODEX_HOME), MCP in config.toml. */
import { homedir } from "node:os";
import { join } from "node:path";
import type { Agent } from "../contract.ts";
import { codexHome, codexProtocol } from "./protocol.ts";

export const codex: Agent = {
  ...codexProtocol,
  name: "codex",
  displayName: "Codex CLI",
  hook: async () => (await import("./handle.ts")).handleCodexHook,
  proof: async () => (await import("./proof.ts")).codexProof,
  liveProof: async () => (await import("./live-proof.ts")).codexDriver,
  installScopes: ["project", "user"],
  install: async (action, request) => {
    const [{ reportInstall }, { codexInstaller }, { trustAfterInstall }] = await Promise.all([
      import("../kit/install-report.ts"),
      import("./install.ts"),
      import("./trust-report.ts"),
    ]);
    const report = reportInstall(codexProtocol, codexInstaller, action, request);
    if (action === "uninstall") return report;
    return {
      ...report,
      lines: [...report.lines, ...(await trustAfterInstall(report.path, request))],
    };
  },
  mcp: {
    // shared with the team, loaded once the project is trusted
    configPath: (root) => join(root, ".codex", "config.toml"),
    userConfigPath: (env) => join(codexHome(env.HOME || homedir(), env), "config.toml"),
    format: "toml",
    args: ["mcp"],
    installNote:
      "Codex reads a project's .codex/config.toml only once it trusts the project (it asks on its first start there); --user writes your own ~/.codex/config.toml instead",
  },
  programs: ["codex"],
  isCommand: (name) => name === "codex",
  projectDir: ".codex",
  homeDir: codexHome,
  writtenHooks: async () => (await import("./hooks-file.ts")).codexHooks("cpilot hook codex", 600),
  hookPlaces: async (root, home, env) => {
    const [{ groupedHookPlace }, { codexHooksPath }, { codexInactive }] = await Promise.all([
      import("../kit/hook-places.ts"),
      import("./install.ts"),
      import("./trust-report.ts"),
    ]);
    const places = [];
    for (const scope of ["project", "user"] as const) {
      const place = groupedHookPlace(codexHooksPath(scope, root, home, env), "codex", "PreToolUse");
      // written is not enough: Codex skips hooks it does not trust (asked of Codex itself)
      const inactive = place.wired
        ? await codexInactive(root, place.path, env, scope === "user")
        : null;
      places.push(inactive === null ? place : { ...place, inactive });
    }
    return places;
  },
};
