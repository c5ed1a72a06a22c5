/** Claude Code: hooks in .claude/settings*.json, and `--settings` for one session. */
import { join } from "node:path";
import type { Agent } from "../contract.ts";
import { claudeConfigDir, claudeProtocol } from "./protocol.ts";

export const claude: Agent = {
  ...claudeProtocol,
  name: "claude",
  displayName: "Claude Code",
  hook: async () => {
    const [{ hookHandler }, { claudeTranslator }] = await Promise.all([
      import("../../hook/call.ts"),
      import("./handle.ts"),
    ]);
    return hookHandler(claudeTranslator);
  },
  proof: async () => (await import("./proof.ts")).claudeProof,
  liveProof: async () => (await import("./live-proof.ts")).claudeDriver,
  installScopes: ["project", "local", "user"],
  install: async (action, request) => (await import("./install.ts")).installClaude(action, request),
  mcp: {
    configPath: (root) => join(root, ".mcp.json"),
    format: "json",
    args: ["mcp"],
    entryFields: { type: "stdio" },
    installNote:
      "Claude Code asks once before it starts a project's .mcp.json servers; approve cpilot there",
  },
  programs: ["claude"],
  postsHooks: true,
  isCommand: (name) => name.includes("claude"),
  projectDir: ".claude",
  homeDir: claudeConfigDir,
  // PostToolBatch is left out: install leaves it out where Claude Code is older than 2.1
  writtenHooks: async () =>
    (await import("./hooks-config.ts")).cpilotHooks({
      command: "cpilot hook claude",
      timeout: 600,
      batchEvent: false,
      failClosed: true,
      rewakeTimeout: 600,
    }),
  hookPlaces: async (root, home, env) => {
    const { groupedHookPlace } = await import("../kit/hook-places.ts");
    return [
      join(root, ".claude", "settings.json"),
      join(root, ".claude", "settings.local.json"),
      join(claudeConfigDir(home, env), "settings.json"),
    ].map((path) => groupedHookPlace(path, "claude", "PreToolUse"));
  },
  addOns: async (home, env) => (await import("./mod/mod-status.ts")).claudeModStatus(home, env),
  formatCall: async () => (await import("./mod/answer.ts")).answerFormatRequest,
  sessionArgs: async (request) => (await import("./session.ts")).claudeSessionArgs(request),
};
