/** Gemini CLI: hooks in .gemini/settings.json (project or home). */
import { join } from "node:path";
import type { Agent } from "../contract.ts";
import { geminiProtocol } from "./protocol.ts";

export const gemini: Agent = {
  ...geminiProtocol,
  name: "gemini",
  displayName: "Gemini CLI",
  hook: async () => (await import("./handle.ts")).handleGeminiHook,
  proof: async () => (await import("./proof.ts")).geminiProof,
  liveProof: async () => (await import("./live-proof.ts")).geminiDriver,
  installScopes: ["project", "user"],
  install: async (action, request) => {
    const [{ reportInstall }, { geminiInstaller }] = await Promise.all([
      import("../kit/install-report.ts"),
      import("./install.ts"),
    ]);
    return reportInstall(geminiProtocol, geminiInstaller, action, request);
  },
  mcp: {
    configPath: (root) => join(root, ".gemini", "settings.json"),
    format: "json",
    args: ["mcp"],
  },
  programs: ["gemini"],
  isCommand: (name) => name === "gemini",
  projectDir: ".gemini",
  homeDir: (home) => join(home, ".gemini"),
  hookPlaces: async (root, home) => {
    const [{ groupedHookPlace }, { geminiSettingsPath }] = await Promise.all([
      import("../kit/hook-places.ts"),
      import("./install.ts"),
    ]);
    return (["project", "user"] as const).map((scope) =>
      groupedHookPlace(geminiSettingsPath(scope, root, home), "gemini"),
    );
  },
};
