/** The command shared hook files get for a project that depends on cpilot, and that cpilot knows it again. */
import { expect, test } from "bun:test";
import { claudeProtocol } from "../../../src/agents/claude/protocol.ts";
import { codexProtocol } from "../../../src/agents/codex/protocol.ts";
import { cursorProtocol } from "../../../src/agents/cursor/protocol.ts";
import { geminiProtocol } from "../../../src/agents/gemini/protocol.ts";
import { isCpilotHookCommand } from "../../../src/agents/kit/hook-command.ts";
import { portableCpilot } from "../../../src/agents/kit/portable-command.ts";
import { PLUGIN_REACH } from "../../../src/agents/opencode/install.ts";
import { NEAREST_NPM_SHIM } from "../../../src/platform/nearest-npm-shim.ts";
import { tempDir, writeFiles } from "../../helpers/tmp.ts";

function dependent(): string {
  const root = tempDir("cpilot-portable-");
  writeFiles(root, { "package.json": JSON.stringify({ devDependencies: { cpilot: "0.1.0" } }) });
  return root;
}

test("the npm sh shim through the project-folder variable, else the nearest one up; never npx but on Windows", () => {
  const root = dependent();
  expect(portableCpilot(claudeProtocol, root, "linux")).toBe(
    '"$CLAUDE_PROJECT_DIR"/node_modules/cpilot/bin/cpilot.sh',
  );
  expect(portableCpilot(geminiProtocol, root, "darwin")).toBe(
    '"$GEMINI_PROJECT_DIR"/node_modules/cpilot/bin/cpilot.sh',
  );
  expect(portableCpilot(PLUGIN_REACH, root, "linux")).toBe("./node_modules/cpilot/bin/cpilot.sh");
  expect(portableCpilot(codexProtocol, root, "linux")).toBe(NEAREST_NPM_SHIM);
  expect(portableCpilot(cursorProtocol, root, "darwin")).toBe(NEAREST_NPM_SHIM);
  expect(portableCpilot(codexProtocol, root, "win32")).toBe("npx --no-install cpilot");
  // Windows: npm's .bin wrapper (Node), no sh shim.
  expect(portableCpilot(claudeProtocol, root, "win32")).toBe(
    '"$CLAUDE_PROJECT_DIR"/node_modules/.bin/cpilot',
  );
  expect(portableCpilot(claudeProtocol, tempDir("cpilot-portable-"), "linux")).toBe("cpilot");
});

test("install, uninstall and doctor recognise the shim's command as cpilot's", () => {
  const root = dependent();
  for (const [agent, protocol] of [
    ["claude", claudeProtocol],
    ["gemini", geminiProtocol],
    ["codex", codexProtocol],
  ] as const) {
    expect(
      isCpilotHookCommand(`${portableCpilot(protocol, root, "linux")} hook ${agent}`, agent),
    ).toBe(true);
  }
  expect(isCpilotHookCommand('"$CLAUDE_PROJECT_DIR"/bin/cpilot.shx hook claude', "claude")).toBe(
    false,
  );
});
