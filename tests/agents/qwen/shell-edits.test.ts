/**
 * Files Qwen Code writes through its shell tool (run_shell_command), with the real CLI and
 * `cpilot install qwen` against the scripted model: found by comparing the project's files
 * with the turn's start (the first UserPromptSubmit of the prompt), checked like an edit,
 * told in that call's result, and held at the stop.
 */
import { expect, test } from "bun:test";
import { e2eSessions } from "../../support/e2e-sessions.ts";
import {
  expectShellEditsSeen,
  playShellSession,
  shellEditsScript,
} from "../../support/shell-edits-session.ts";
import { qwenCli } from "./_qwen-cli.ts";

const sessions = e2eSessions(qwenCli);
const shell = (command: string) => ({ tool: "run_shell_command", args: { command } });

test("a lint error, a formatter's rewrite and .env written through the shell reach the model and hold its stop", async () => {
  const { run, project, after } = await playShellSession(
    sessions,
    "qwen",
    shellEditsScript(shell),
    [],
  );
  expect(run.code).toBe(0);
  expectShellEditsSeen(project, after);
}, 300_000);
