import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../helpers/tmp.ts";
import { cpilot } from "./_agent-project.ts";
import { checkInstallCycle, checkRefusesBadJson } from "./_install-check.ts";

const USER = {
  model: { name: "gemini-2.5-pro" },
  hooks: {
    BeforeTool: [
      {
        matcher: "run_shell_command",
        hooks: [{ type: "command", command: "./guard.sh", timeout: 5000 }],
      },
    ],
    SessionStart: [{ hooks: [{ type: "command", command: "echo hi" }] }],
  },
};

describe("cpilot install gemini", () => {
  test("merges into .gemini/settings.json (timeouts in ms), idempotent; uninstall restores the user's file", () => {
    checkInstallCycle("gemini", ".gemini/settings.json", USER, (s) => {
      expect(s.model).toEqual(USER.model);
      const hooks = s.hooks as Record<string, unknown[]>;
      expect(hooks.SessionStart).toEqual(USER.hooks.SessionStart);
      expect(hooks.BeforeTool).toEqual([
        USER.hooks.BeforeTool[0],
        {
          matcher: "write_file|replace",
          hooks: [
            {
              type: "command",
              command: "cpilot hook gemini",
              name: "cpilot-gate",
              timeout: 1_260_000,
            },
          ],
        },
      ]);
      expect(hooks.BeforeAgent).toEqual([
        {
          hooks: [
            {
              type: "command",
              command: "cpilot hook gemini",
              name: "cpilot-context",
              timeout: 10_000,
            },
          ],
        },
      ]);
      expect(hooks.AfterTool).toEqual([
        {
          // the shell tool too: what a command changed is checked like an edit
          matcher: "write_file|replace|run_shell_command",
          hooks: [
            {
              type: "command",
              command: "cpilot hook gemini",
              name: "cpilot-callbacks",
              timeout: 1_260_000,
            },
          ],
        },
      ]);
      expect(hooks.AfterAgent).toEqual([
        {
          hooks: [
            {
              type: "command",
              command: "cpilot hook gemini",
              name: "cpilot-stop",
              timeout: 1_260_000,
            },
          ],
        },
      ]);
    });
  });

  test("into a project without the file", () => {
    checkInstallCycle("gemini", ".gemini/settings.json", null, (s) => {
      expect(Object.keys(s.hooks as object)).toEqual([
        "BeforeAgent",
        "BeforeTool",
        "AfterTool",
        "AfterAgent",
      ]);
    });
  });

  test("refuses a settings file that is not JSON", () =>
    checkRefusesBadJson("gemini", ".gemini/settings.json"));
});

describe("cpilot install <agent> --user", () => {
  test("writes the home folder's file; --local is Claude-only", () => {
    const dir = tempDir("cpilot-install-user-");
    const home = tempDir("cpilot-install-home-");
    try {
      const r = cpilot(["install", "gemini", "--user"], { cwd: dir, env: { HOME: home } });
      expect(r.code).toBe(0);
      const settings = JSON.parse(readFileSync(join(home, ".gemini", "settings.json"), "utf8"));
      expect(Object.keys(settings.hooks)).toEqual([
        "BeforeAgent",
        "BeforeTool",
        "AfterTool",
        "AfterAgent",
      ]);
      expect(existsSync(join(dir, ".gemini"))).toBe(false);
      expect(
        cpilot(["install", "opencode", "--user"], { cwd: dir, env: { HOME: home } }).code,
      ).toBe(0);
      expect(existsSync(join(home, ".config", "opencode", "plugins", "cpilot.ts"))).toBe(true);
      const local = cpilot(["install", "codex", "--local"], { cwd: dir, env: { HOME: home } });
      expect(local.code).toBe(2);
      expect(local.stderr).toContain("only Claude Code has a local settings file");
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  });
});
