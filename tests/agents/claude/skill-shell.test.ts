/**
 * A skill's shell commands (`!` lines in its SKILL.md) run when the skill loads, before
 * Claude Code 2.1.332's PreSkillShellCommand event, and may write files like a Bash command.
 * With the real CLI and `cpilot install claude --local`: what a skill the model loads
 * through its Skill tool wrote is found by comparing the project's files, checked in that
 * tool's result, and holds the stop.
 */
import { afterEach, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { runClaude } from "../../support/claude-cli.ts";
import { startFakeAnthropic, type Turn, textOf } from "../../support/fake-anthropic.ts";
import { makeTempProject } from "../../support/temp-project.ts";
import { cpilot } from "./_helpers.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const lint = {
  name: "lint",
  pattern: "*.ts",
  run: 'if grep -n TODO "$CP_CHANGED_FILE"; then echo "lint: TODO found" >&2; exit 1; fi',
  timeout: 20,
  per: "file",
};

const SKILL = `---
name: scaffold
description: Writes the scaffold file s.ts
---
Scaffold: !\`printf 'export const s = 1; // TODO\\n' > s.ts && echo written\`
`;

test("a lint error a skill's shell command wrote reaches the model in the Skill result and holds the stop", async () => {
  const project = await makeTempProject();
  const say = (text: string): Turn => [{ type: "text", text }];
  const api = await startFakeAnthropic([
    [{ type: "tool_use", name: "Skill", input: { skill: "scaffold" } }],
    say("done"),
    [{ type: "tool_use", name: "Bash", input: { command: "rm s.ts", description: "undo" } }],
    say("removed"),
  ]);
  cleanups.push(
    () => api.close(),
    () => project.remove(),
  );
  mkdirSync(project.path(".claude/skills/scaffold"), { recursive: true });
  await project.write(".claude/skills/scaffold/SKILL.md", SKILL);
  await project.write("callbacks.config.json", JSON.stringify({ callbacks: [lint] }));
  const installed = cpilot(["install", "claude", "--local"], { cwd: project.dir });
  if (installed.code !== 0) throw new Error(`install failed: ${installed.stderr}`);
  const run = await runClaude({ cwd: project.dir, apiUrl: api.url, prompt: "scaffold it" });
  expect(run.exitCode).toBe(0);
  expect(api.escapes()).toEqual([]);
  const turns = api.turns();
  const afterSkill = textOf(turns[1]!);
  expect(afterSkill).toContain("written"); // the skill's command ran
  expect(afterSkill).toContain("PostToolUse:Skill hook blocking error");
  expect(afterSkill).toContain("'lint' failed on s.ts");
  expect(textOf(turns[2]!)).toContain("Stop hook feedback");
  expect(turns).toHaveLength(4);
}, 90_000);
