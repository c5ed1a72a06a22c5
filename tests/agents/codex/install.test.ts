import { describe, expect, test } from "bun:test";
import { checkInstallCycle, checkRefusesBadJson } from "../gemini/_install-check.ts";

const USER = {
  hooks: {
    PreToolUse: [{ matcher: "shell", hooks: [{ type: "command", command: "python3 guard.py" }] }],
    Stop: [{ hooks: [{ type: "command", command: "notify-send done", timeout: 5 }] }],
  },
};

describe("cpilot install codex", () => {
  test("merges into .codex/hooks.json (apply_patch, seconds), idempotent; uninstall restores the user's file", () => {
    checkInstallCycle("codex", ".codex/hooks.json", USER, (s) => {
      const hooks = s.hooks as Record<string, unknown[]>;
      const ours = {
        matcher: "apply_patch",
        hooks: [{ type: "command", command: "cpilot hook codex", timeout: 1260 }],
      };
      expect(hooks.PreToolUse).toEqual([USER.hooks.PreToolUse[0], ours]);
      expect(hooks.PostToolUse).toEqual([ours]);
      expect(hooks.Stop).toEqual(USER.hooks.Stop);
    });
  });

  test("refuses a hooks file that is not JSON", () =>
    checkRefusesBadJson("codex", ".codex/hooks.json"));
});
