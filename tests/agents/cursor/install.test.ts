import { describe, expect, test } from "bun:test";
import { checkInstallCycle, checkRefusesBadJson } from "../gemini/_install-check.ts";

const USER = {
  version: 1,
  hooks: {
    beforeShellExecution: [{ command: "./audit.sh" }],
    afterFileEdit: [{ command: "prettier --write", timeout: 10 }],
  },
};

describe("cpilot install cursor", () => {
  test("merges into .cursor/hooks.json (version 1), idempotent; uninstall restores the user's file", () => {
    checkInstallCycle("cursor", ".cursor/hooks.json", USER, (s) => {
      expect(s.version).toBe(1);
      const hooks = s.hooks as Record<string, unknown[]>;
      const ours = { command: "cpilot hook cursor", timeout: 1260 };
      expect(hooks.beforeShellExecution).toEqual(USER.hooks.beforeShellExecution);
      expect(hooks.afterFileEdit).toEqual([USER.hooks.afterFileEdit[0], ours]);
      // failClosed: Cursor refuses the edit when the gate's hook cannot run or crashes
      expect(hooks.preToolUse).toEqual([{ ...ours, failClosed: true }]);
      expect(hooks.postToolUse).toEqual([ours]);
    });
  });

  test("a new file gets version 1", () => {
    checkInstallCycle("cursor", ".cursor/hooks.json", null, (s) => expect(s.version).toBe(1));
  });

  test("refuses a hooks file that is not JSON", () =>
    checkRefusesBadJson("cursor", ".cursor/hooks.json"));
});
