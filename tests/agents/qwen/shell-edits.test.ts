/**
 * Files Qwen Code writes through its shell tool (run_shell_command), with the real CLI and
 * `cpilot install qwen` against the scripted model: found by comparing the project's files
 * with the turn's start (the first UserPromptSubmit of the prompt), checked like an edit,
 * told in that call's result, and held at the stop.
 */
import { expect, test } from "bun:test";
import { e2eSessions } from "../../support/e2e-sessions.ts";
import { afterLastTurn } from "../../support/fake-openai.ts";
import {
  expectShellEditsSeen,
  FIX_THROUGH_SHELL,
  shellEditsProject,
  WRITE_THROUGH_SHELL,
} from "../../support/shell-edits-session.ts";
import { qwenCli } from "./_qwen-cli.ts";

const sessions = e2eSessions(qwenCli);
const shell = (command: string) => ({ tool: "run_shell_command", args: { command } });

test("a lint error, a formatter's rewrite and .env written through the shell reach the model and hold its stop", async () => {
  const project = shellEditsProject("qwen");
  const s = await sessions.start(
    project,
    [
      [shell(WRITE_THROUGH_SHELL)],
      [{ text: "done" }],
      [shell(FIX_THROUGH_SHELL)],
      [{ text: "fixed" }],
    ],
    [],
  );
  const run = await s.run("do the task");
  expect(run.code).toBe(0);
  expect(s.api.escapes().map((r) => r.path)).toEqual([]);
  expectShellEditsSeen(
    project,
    s.api.turns().map((t) => afterLastTurn(t as never)),
  );
}, 300_000);
