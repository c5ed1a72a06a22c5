/** `cpilot install copilot`: its own .github/hooks/cpilot.json, and Copilot's folder trust. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../helpers/tmp.ts";
import { cpilot } from "../gemini/_agent-project.ts";

describe("cpilot install copilot", () => {
  test("writes its events, idempotent; uninstall removes only its own file", () => {
    const root = tempDir("cpilot-copilot-install-", { git: true });
    const home = tempDir("cpilot-copilot-home-");
    const env = { COPILOT_HOME: home };
    let r = cpilot(["install", "copilot"], { cwd: root, env });
    expect(r.code).toBe(0);
    const file = join(root, ".github", "hooks", "cpilot.json");
    const json = JSON.parse(readFileSync(file, "utf8"));
    expect(json.version).toBe(1);
    expect(Object.keys(json.hooks)).toEqual([
      "sessionStart",
      "userPromptSubmitted",
      "preToolUse",
      "postToolUse",
      "agentStop",
      "subagentStop",
    ]);
    expect(json.hooks.agentStop[0]).toMatchObject({ type: "command", bash: "cpilot hook copilot" });
    expect(json.hooks.preToolUse[0]).toMatchObject({
      type: "command",
      bash: "cpilot hook copilot",
    });
    expect(r.stderr).toMatch(/^\$ cpilot install copilot --trust-project$/m);
    r = cpilot(["install", "copilot"], { cwd: root, env });
    expect(r.stderr).toContain("nothing changed");
    r = cpilot(["uninstall", "copilot"], { cwd: root, env });
    expect(existsSync(file)).toBe(false);
    writeFileSync(file, JSON.stringify({ version: 1, hooks: {} }));
    r = cpilot(["uninstall", "copilot"], { cwd: root, env });
    expect(existsSync(file)).toBe(true);
  });

  test("--trust-project adds the folder to trustedFolders, keeping Copilot's comment lines and keys", () => {
    const root = tempDir("cpilot-copilot-install-", { git: true });
    const home = tempDir("cpilot-copilot-home-");
    mkdirSync(home, { recursive: true });
    writeFileSync(
      join(home, "config.json"),
      '// User settings belong in settings.json.\n// This file is managed automatically.\n{\n  "firstLaunchAt": "x"\n}\n',
    );
    const r = cpilot(["install", "copilot", "--trust-project"], {
      cwd: root,
      env: { COPILOT_HOME: home },
    });
    expect(r.code).toBe(0);
    const text = readFileSync(join(home, "config.json"), "utf8");
    expect(text.startsWith("// User settings belong in settings.json.\n// This file")).toBe(true);
    const json = JSON.parse(text.split("\n").slice(2).join("\n"));
    expect(json).toEqual({ firstLaunchAt: "x", trustedFolders: [root] });
    const again = cpilot(["install", "copilot"], { cwd: root, env: { COPILOT_HOME: home } });
    expect(again.stderr).not.toContain("--trust-project");
  });
});
