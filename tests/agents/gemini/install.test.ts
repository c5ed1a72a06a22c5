import { describe, expect, test } from "bun:test";
import { binary } from "./_agent-project.ts";
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
              command: `${binary()} hook gemini`,
              name: "cpilot-gate",
              timeout: 1_260_000,
            },
          ],
        },
      ]);
      expect(hooks.AfterTool).toEqual([
        {
          matcher: "write_file|replace",
          hooks: [
            {
              type: "command",
              command: `${binary()} hook gemini`,
              name: "cpilot-callbacks",
              timeout: 1_260_000,
            },
          ],
        },
      ]);
    });
  });

  test("into a project without the file", () => {
    checkInstallCycle("gemini", ".gemini/settings.json", null, (s) => {
      expect(Object.keys(s.hooks as object)).toEqual(["BeforeTool", "AfterTool"]);
    });
  });

  test("refuses a settings file that is not JSON", () =>
    checkRefusesBadJson("gemini", ".gemini/settings.json"));
});
