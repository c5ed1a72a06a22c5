/** Gemini CLI: hooks in .gemini/settings.json (project or home). */
import { join } from "node:path";
import type { Agent, InactiveHooks } from "../contract.ts";
import { geminiProtocol } from "./protocol.ts";

const UNTRUSTED: InactiveHooks = {
  reason:
    "Gemini CLI reads a folder's settings, hooks included, only once it trusts the folder (its first start there asks; headless it exits 55), so cpilot's hooks do not run",
  step: "cpilot install gemini --trust-project",
  bypassArg: "--skip-trust",
};

export const gemini: Agent = {
  ...geminiProtocol,
  name: "gemini",
  displayName: "Gemini CLI",
  hook: async () => (await import("./handle.ts")).handleGeminiHook,
  proof: async () => (await import("./proof.ts")).geminiProof,
  liveProof: async () => (await import("./live-proof.ts")).geminiDriver,
  installScopes: ["project", "user"],
  install: async (action, request) => {
    const [{ reportInstall }, { geminiInstaller }, trust] = await Promise.all([
      import("../kit/install-report.ts"),
      import("./install.ts"),
      import("./folder-trust.ts"),
    ]);
    const report = reportInstall(geminiProtocol, geminiInstaller, action, request);
    if (action === "uninstall") return report;
    const lines = [...report.lines];
    if (trust.geminiTrusts(request.root, request.home, request.env) === false) {
      if (request.trustProject === true) {
        const path = trust.trustGeminiFolder(request.root, request.home, request.env);
        lines.push(`  Gemini CLI now trusts this folder: added to ${path}`);
      } else lines.push(`  ${UNTRUSTED.reason}; to fix it:`, `$ ${UNTRUSTED.step}`);
    }
    return { ...report, lines };
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
  writtenHooks: async () =>
    (await import("./settings.ts")).geminiHooks("cpilot hook gemini", 600_000),
  hookPlaces: async (root, home, env) => {
    const [{ groupedHookPlace }, { geminiSettingsPath }, { geminiTrusts }] = await Promise.all([
      import("../kit/hook-places.ts"),
      import("./install.ts"),
      import("./folder-trust.ts"),
    ]);
    // GEMINI_CLI_TRUST_WORKSPACE=true trusts the folder for the run
    const trustedNow =
      env.GEMINI_CLI_TRUST_WORKSPACE === "true" || geminiTrusts(root, home, env) !== false;
    return (["project", "user"] as const).map((scope) => {
      const place = groupedHookPlace(geminiSettingsPath(scope, root, home), "gemini");
      return place.wired && !trustedNow ? { ...place, inactive: UNTRUSTED } : place;
    });
  },
};
