/**
 * Files Gemini CLI writes through its shell tool (run_shell_command), with the real CLI and
 * `cpilot install gemini` against the scripted model: found by comparing the project's
 * files with the turn's start (BeforeAgent), checked like an edit, told in that call's
 * result (AfterTool), and held at the stop (AfterAgent).
 */
import { expect, test } from "bun:test";
import {
  expectShellEditsSeen,
  shellEditsProject,
  shellEditsScript,
} from "../../support/shell-edits-session.ts";
import { cpilot } from "./_agent-project.ts";
import { lastUserText, startFakeGemini } from "./_fake-gemini.ts";
import { runGemini } from "./_gemini-cli.ts";

const shell = (command: string) => ({
  functionCall: { name: "run_shell_command", args: { command } },
});

test("a lint error, a formatter's rewrite and .env written through the shell reach the model and hold its stop", async () => {
  const p = shellEditsProject("gemini");
  const api = await startFakeGemini(shellEditsScript(shell));
  try {
    expect(cpilot(["install", "gemini"], { cwd: p.dir }).code).toBe(0);
    const run = await runGemini({
      cwd: p.dir,
      prompt: "do the task",
      apiUrl: api.url,
      timeoutMs: 120_000,
    });
    expect(run.code).toBe(0);
    expect(api.escapes()).toEqual([]);
    expectShellEditsSeen(
      p,
      api.turns().map((t) => lastUserText(t as never)),
    );
  } finally {
    p.remove();
    await api.close();
  }
}, 200_000);
