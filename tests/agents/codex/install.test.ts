import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { failClosedCommand } from "../../../src/hook/fail-closed-command.ts";
import { tempDir } from "../../helpers/tmp.ts";
import { cpilot } from "../gemini/_agent-project.ts";
import { checkInstallCycle, checkRefusesBadJson } from "../gemini/_install-check.ts";

const USER = {
  hooks: {
    PreToolUse: [{ matcher: "shell", hooks: [{ type: "command", command: "python3 guard.py" }] }],
    Stop: [{ hooks: [{ type: "command", command: "notify-send done", timeout: 5 }] }],
  },
};

describe("cpilot install codex", () => {
  test("merges into .codex/hooks.json (apply_patch and the shell tool, the stop gate, seconds), idempotent; uninstall restores the user's file", () => {
    checkInstallCycle("codex", ".codex/hooks.json", USER, (s) => {
      const hooks = s.hooks as Record<string, unknown[]>;
      const on = (matcher: string) => ({
        matcher,
        hooks: [{ type: "command", command: "cpilot hook codex", timeout: 1260 }],
      });
      // the gate fails closed: a missing or crashing cpilot exits 2 (missing-cpilot.e2e.test.ts)
      const gate = (matcher: string) => ({
        matcher,
        hooks: [
          { type: "command", command: failClosedCommand("cpilot hook codex"), timeout: 1260 },
        ],
      });
      expect(hooks.PreToolUse).toEqual([
        USER.hooks.PreToolUse[0],
        gate("apply_patch"),
        gate("Bash"),
      ]);
      expect(hooks.PostToolUse).toEqual([on("apply_patch"), on("Bash")]);
      // the turn's start, for what the shell changes
      expect(hooks.UserPromptSubmit).toEqual([
        { hooks: [{ type: "command", command: "cpilot hook codex", timeout: 60 }] },
      ]);
      expect(hooks.Stop).toEqual([
        USER.hooks.Stop[0],
        { hooks: [{ type: "command", command: "cpilot hook codex", timeout: 1260 }] },
      ]);
    });
  });

  test("refuses a hooks file that is not JSON", () =>
    checkRefusesBadJson("codex", ".codex/hooks.json"));
});

describe("Codex's trust, when Codex cannot be asked", () => {
  test("no codex_hooks advice; the step to repeat once Codex is on PATH, on its own line", () => {
    const root = tempDir("cpilot-codex-trust-", { git: true });
    const r = cpilot(["install", "codex"], {
      cwd: root,
      env: { PATH: "/usr/bin:/bin", CPILOT_CODEX: join(root, "no-codex-here") },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("codex_hooks");
    expect(r.stderr).toContain("Codex runs only hooks it trusts, and it could not be asked here");
    expect(r.stderr).toMatch(/^\$ cpilot install codex$/m);
  });
});
