/**
 * The files the gate obeys may be symlinks to files under other names in the project: the
 * file a link leads to is what the gate reads, so it is protected like the link's name.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { attackProject, preWrite, reasonOf, verdict } from "./_gate-attack.ts";

const CONFIG = `${JSON.stringify({ callbacks: [], gate: { rules: [{ action: "deny", pattern: "secrets/**" }] } })}\n`;

describe("a config or hook settings file that is a symlink", () => {
  test("callbacks.config.json -> tools/gate.json: tools/gate.json is protected", async () => {
    const p = attackProject({ "tools/gate.json": CONFIG });
    symlinkSync("tools/gate.json", p.path("callbacks.config.json"));
    const held = await p.hook("claude", preWrite("claude", p.dir, "secrets/x"));
    expect(reasonOf(held)).toContain('gate rule "secrets/**"');
    const r = await p.hook("claude", preWrite("claude", p.dir, "tools/gate.json"));
    expect(verdict("claude", r)).toBe("ask");
    expect(reasonOf(r)).toContain("cpilot's config");
  }, 30_000);

  test("callbacks.config.ts -> tools/gate.ts: what it imports from tools/ is protected", async () => {
    const p = attackProject({
      "tools/gate.ts":
        'import { rules } from "./rules.ts";\nexport default { callbacks: [], gate: { rules } };\n',
      "tools/rules.ts": 'export const rules = [{ action: "deny", pattern: "secrets/**" }];\n',
    });
    symlinkSync("tools/gate.ts", p.path("callbacks.config.ts"));
    const held = await p.hook("claude", preWrite("claude", p.dir, "secrets/x"));
    expect(reasonOf(held)).toContain('gate rule "secrets/**"');
    const r = await p.hook("claude", preWrite("claude", p.dir, "tools/rules.ts"));
    expect(verdict("claude", r)).toBe("ask");
    expect(reasonOf(r)).toContain("a file cpilot's config imports");
  }, 30_000);

  test(".claude/settings.json -> shared/claude.json: shared/claude.json is protected", async () => {
    const p = attackProject({ "callbacks.config.json": CONFIG, "shared/claude.json": "{}\n" });
    mkdirSync(p.path(".claude"));
    symlinkSync("../shared/claude.json", p.path(".claude/settings.json"));
    const r = await p.hook("claude", preWrite("claude", p.dir, "shared/claude.json"));
    expect(verdict("claude", r)).toBe("ask");
    expect(reasonOf(r)).toContain("hook settings");
  }, 30_000);
});
