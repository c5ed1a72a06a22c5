/** GitHub Copilot CLI: hooks in .github/hooks/cpilot.json, loaded in folders Copilot trusts. */
import { homedir } from "node:os";
import { join } from "node:path";
import type { Agent, InactiveHooks } from "../contract.ts";
import { copilotProtocol } from "./protocol.ts";

const UNTRUSTED: InactiveHooks = {
  reason:
    "Copilot CLI loads a folder's hooks only once it trusts the folder (its first start there asks), so cpilot's hooks do not run",
  step: "cpilot install copilot --trust-project",
};

export const copilot: Agent = {
  ...copilotProtocol,
  name: "copilot",
  displayName: "Copilot CLI",
  hook: async () => (await import("./handle.ts")).handleCopilotHook,
  proof: async () => (await import("./proof.ts")).copilotProof,
  liveProof: async () => (await import("./live-proof.ts")).copilotDriver,
  installScopes: ["project"],
  install: async (action, request) => {
    const [{ reportInstall }, { copilotInstaller }, trust] = await Promise.all([
      import("../kit/install-report.ts"),
      import("./install.ts"),
      import("./folder-trust.ts"),
    ]);
    const report = reportInstall(copilotProtocol, copilotInstaller, action, request);
    if (action === "uninstall") return report;
    const lines = [...report.lines];
    if (trust.copilotTrusts(request.root, request.env) === false) {
      if (request.trustProject === true) {
        const path = trust.trustCopilotFolder(request.root, request.env);
        lines.push(`  Copilot CLI now trusts this folder: added to trustedFolders in ${path}`);
      } else lines.push(`  ${UNTRUSTED.reason}; to fix it:`, `$ ${UNTRUSTED.step}`);
    }
    return { ...report, lines };
  },
  // Copilot CLI 1.0.102 reads a trusted project's .mcp.json (Claude Code's file and entry, seen)
  mcp: {
    configPath: (root) => join(root, ".mcp.json"),
    userConfigPath: (env) =>
      join(env.COPILOT_HOME || join(env.HOME || homedir(), ".copilot"), "mcp-config.json"),
    format: "json",
    args: ["mcp"],
    entryFields: { type: "stdio" },
    installNote:
      "Copilot CLI reads a project's .mcp.json only in a folder it trusts (`cpilot install copilot --trust-project`); its tools show as cpilot-<tool>",
  },
  programs: ["copilot"],
  isCommand: (name) => name === "copilot",
  projectDir: ".github/hooks",
  homeDir: (home, env) => env.COPILOT_HOME || join(home || homedir(), ".copilot"),
  writtenHooks: async () => {
    const file = (await import("./install.ts")).copilotHooksFile("cpilot hook copilot", 600);
    return file.hooks as Record<string, unknown>;
  },
  hookPlaces: async (root, _home, env) => {
    const [{ jsonHookPlace }, { copilotHooksPath, isCopilotCpilotCommand }, { copilotTrusts }] =
      await Promise.all([
        import("../kit/hook-places.ts"),
        import("./install.ts"),
        import("./folder-trust.ts"),
      ]);
    const place = jsonHookPlace(copilotHooksPath(root), "copilot", (json) =>
      JSON.stringify(json).split('"').some(isCopilotCpilotCommand),
    );
    // COPILOT_ALLOW_ALL=true (exactly) trusts the folder for the run (Copilot's own help)
    const trustedNow = env.COPILOT_ALLOW_ALL === "true" || copilotTrusts(root, env) !== false;
    if (!place.wired || trustedNow) return [place];
    return [{ ...place, inactive: UNTRUSTED }];
  },
};
