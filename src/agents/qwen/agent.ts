/** Qwen Code: hooks in .qwen/settings.json (project or home), Claude Code's schema. */
import { join } from "node:path";
import type { Agent } from "../contract.ts";
import { qwenProtocol } from "./protocol.ts";

export const qwen: Agent = {
  ...qwenProtocol,
  name: "qwen",
  displayName: "Qwen Code",
  hook: async () => (await import("./handle.ts")).handleQwenHook,
  proof: async () => (await import("./proof.ts")).qwenProof,
  liveProof: async () => (await import("./live-proof.ts")).qwenDriver,
  installScopes: ["project", "user"],
  install: async (action, request) => {
    const [{ reportInstall }, { qwenInstaller }] = await Promise.all([
      import("../kit/install-report.ts"),
      import("./install.ts"),
    ]);
    return reportInstall(qwenProtocol, qwenInstaller, action, request);
  },
  mcp: {
    configPath: (root) => join(root, ".qwen", "settings.json"),
    format: "json",
    args: ["mcp"],
  },
  programs: ["qwen"],
  isCommand: (name) => name === "qwen",
  projectDir: ".qwen",
  homeDir: (home) => join(home, ".qwen"),
  writtenHooks: async () => (await import("./install.ts")).qwenHooks("cpilot hook qwen", 600),
  hookPlaces: async (root, home) => {
    const [{ groupedHookPlace }, { qwenSettingsPath }] = await Promise.all([
      import("../kit/hook-places.ts"),
      import("./install.ts"),
    ]);
    return (["project", "user"] as const).map((scope) =>
      groupedHookPlace(qwenSettingsPath(scope, root, home), "qwen", "PreToolUse"),
    );
  },
};
