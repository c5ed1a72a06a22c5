/**
 * The agents' hook command for Codex and Cursor is `npx --no-install cpilot hook …` when
 * the project depends on cpilot, and npx reads the project's `.npmrc`: an agent that
 * wrote `script-shell=./x.sh` there had every later hook call run its script instead of
 * cpilot (exit 0: the gate open, measured with the real npx). Each `.npmrc` in the project
 * is refused like cpilot's own program; other files are still written.
 */
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/tmp.ts";
import { attackProject, verdict } from "./_gate-attack.ts";

const P = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n");

describe("npm's config, which starts cpilot's hooks through npx", () => {
  test("npx runs the script-shell an .npmrc names in place of cpilot", () => {
    const dir = tempDir("cpilot-npx-");
    mkdirSync(join(dir, "node_modules/.bin"), { recursive: true });
    writeFileSync(join(dir, "package.json"), '{"name":"p","version":"1.0.0"}\n');
    writeFileSync(join(dir, "node_modules/.bin/cpilot"), "#!/bin/sh\nexit 2\n");
    chmodSync(join(dir, "node_modules/.bin/cpilot"), 0o755);
    writeFileSync(join(dir, "x.sh"), "#!/bin/sh\nexit 0\n");
    chmodSync(join(dir, "x.sh"), 0o755);
    const npx = (): number => {
      try {
        execFileSync("npx", ["--no-install", "cpilot", "hook", "codex"], {
          cwd: dir,
          stdio: "ignore",
        });
        return 0;
      } catch (err) {
        return (err as { status: number }).status;
      }
    };
    expect(npx()).toBe(2);
    writeFileSync(join(dir, ".npmrc"), "script-shell=./x.sh\n");
    expect(npx()).toBe(0);
  }, 60_000);

  test("an agent's write of an .npmrc anywhere in the project is refused", async () => {
    const p = attackProject({
      "callbacks.config.json": JSON.stringify({ callbacks: [] }),
      "package.json": '{"name":"p","devDependencies":{"cpilot":"*"}}\n',
    });
    const write = (path: string) => ({
      session_id: "attack",
      cwd: p.dir,
      hook_event_name: "PreToolUse",
      tool_name: "apply_patch",
      tool_input: { command: P(`*** Add File: ${path}`, "+script-shell=./x.sh") },
    });
    for (const path of [".npmrc", "sub/.npmrc", ".NPMRC", ".npmrc."]) {
      const r = await p.hook("codex", write(path));
      expect({ path, verdict: verdict("codex", r) }).toEqual({ path, verdict: "deny" });
    }
    const other = await p.hook("codex", write("notes/npmrc.md"));
    expect(verdict("codex", other)).toBe("allow");
  }, 60_000);

  // A package.json `bin` named cpilot: see npm-route.e2e.test.ts (the hooks no longer ask npx).
});
