/**
 * Attacks on the write gate through the compiled binary, as an agent (or a config gone
 * wrong) would make them: every pre-write hook must end in a verdict, and the verdict must
 * hold for the file the kernel will really write.
 */
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../helpers/tmp.ts";
import { type Agent, attackProject, preWrite, reasonOf, verdict } from "./_gate-attack.ts";

const JSON_CONFIG = { "callbacks.config.json": '{ "callbacks": [] }\n' };
const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n");
const codexPatch = (dir: string, text: string) => ({
  session_id: "attack",
  cwd: dir,
  hook_event_name: "PreToolUse",
  tool_name: "apply_patch",
  tool_input: { command: text },
});

describe("paths are checked where the kernel lands them (issue 16, item 6)", () => {
  test("codex: `linkdir/../x` with linkdir -> outside the root is denied", async () => {
    const outside = tempDir("cpilot-outside-");
    mkdirSync(join(outside, "inner"));
    const p = attackProject(JSON_CONFIG);
    symlinkSync(join(outside, "inner"), p.path("linkdir"));
    const r = await p.hook(
      "codex",
      codexPatch(p.dir, patch("*** Add File: linkdir/../x", "+pwned")),
    );
    expect(verdict("codex", r)).toBe("deny");
    expect(reasonOf(r)).toContain("outside the project root");
  });

  test("codex: `hk/../hooks/pre-commit` with hk -> .git/hooks is denied", async () => {
    const p = attackProject(JSON_CONFIG);
    symlinkSync(p.path(".git/hooks"), p.path("hk"));
    const r = await p.hook(
      "codex",
      codexPatch(p.dir, patch("*** Add File: hk/../hooks/pre-commit", "+#!/bin/sh")),
    );
    expect(verdict("codex", r)).toBe("deny");
    expect(reasonOf(r)).toContain(".git");
  });

  for (const agent of ["claude", "gemini", "cursor"] as Agent[]) {
    test(`${agent}: an absolute path through a link and .. lands in .git/hooks: denied`, async () => {
      const p = attackProject(JSON_CONFIG);
      symlinkSync(p.path(".git/hooks"), p.path("hk"));
      const r = await p.hook(agent, preWrite(agent, p.dir, `${p.dir}/hk/../hooks/pre-commit`));
      expect(verdict(agent, r)).toBe("deny");
    });
  }
});
