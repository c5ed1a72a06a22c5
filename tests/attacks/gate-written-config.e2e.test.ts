/**
 * Attacks on the gate for a write given relative to the agent's folder, and on finding the
 * config from the written file when the agent's folder has none (loadHookConfig's
 * `written`): the rules must be matched against the file the agent will really write.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { basename, dirname } from "node:path";
import { tempDir } from "../helpers/tmp.ts";
import { type Agent, attackProject, preWrite, reasonOf, verdict } from "./_gate-attack.ts";

const AGENTS: Agent[] = ["claude", "codex", "gemini", "cursor"];
const denying = (pattern: string) => ({
  "callbacks.config.json": `${JSON.stringify({
    callbacks: [],
    gate: { rules: [{ action: "deny", pattern }] },
  })}\n`,
});

describe("a relative path is the agent's, taken from its folder", () => {
  for (const agent of AGENTS) {
    test(`${agent}: from a parent folder with no config, <project>/secrets/x is denied`, async () => {
      const p = attackProject(denying("secrets/**"));
      const parent = dirname(p.dir);
      const r = await p.hook(agent, preWrite(agent, parent, `${basename(p.dir)}/secrets/x`));
      expect(verdict(agent, r)).toBe("deny");
      expect(reasonOf(r)).toContain('gate rule "secrets/**"');
    }, 30_000);

    test(`${agent}: from a subfolder, secrets/x is sub/secrets/x`, async () => {
      const p = attackProject(denying("sub/secrets/**"));
      mkdirSync(p.path("sub"));
      const r = await p.hook(agent, preWrite(agent, p.path("sub"), "secrets/x"));
      expect(verdict(agent, r)).toBe("deny");
      expect(reasonOf(r)).toContain('gate rule "sub/secrets/**"');
    }, 30_000);

    test(`${agent}: through a symlink into the project from a folder with no config: denied`, async () => {
      const p = attackProject(denying("secrets/**"));
      mkdirSync(p.path("secrets"));
      const outside = tempDir("cpilot-no-config-");
      symlinkSync(p.path("secrets"), `${outside}/lnk`);
      const r = await p.hook(agent, preWrite(agent, outside, `${outside}/lnk/x`));
      expect(verdict(agent, r)).toBe("deny");
    }, 30_000);
  }
});

test("opencode: from a subfolder, a relative filePath is sub/secrets/x", async () => {
  const p = attackProject(denying("sub/secrets/**"));
  mkdirSync(p.path("sub"));
  const r = await p.hook("opencode" as Agent, {
    hook_event_name: "tool.execute.before",
    tool: "write",
    session_id: "attack",
    cwd: p.path("sub"),
    args: { filePath: "secrets/x", content: "x\n" },
  });
  expect(r.json?.decision).toBe("deny");
  expect(String(r.json?.reason)).toContain('gate rule "sub/secrets/**"');
}, 30_000);
