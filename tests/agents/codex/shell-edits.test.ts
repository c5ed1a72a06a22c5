/**
 * Files Codex writes through its shell tool (exec_command, `Bash` to its hooks), with the real CLI and
 * `cpilot install codex --trust-project` against the scripted model: found by comparing the project's files
 * with the turn's start (UserPromptSubmit), checked like an edit,
 * told in that call's result, and held at the stop.
 */
import { expect, test } from "bun:test";
import { e2eSessions } from "../../support/e2e-sessions.ts";
import {
  expectShellEditsSeen,
  playShellSession,
  shellEditsScript,
} from "../../support/shell-edits-session.ts";
import { codexCli } from "./_codex-cli.ts";

const sessions = e2eSessions(codexCli);
const shell = (command: string) => ({ tool: "exec_command", args: { cmd: command } });

test("a lint error, a formatter's rewrite and .env written through the shell reach the model and hold its stop", async () => {
  const { run, project, after } = await playShellSession(
    sessions,
    "codex",
    shellEditsScript(shell),
    ["--trust-project"],
  );
  expect(run.code).toBe(0);
  expectShellEditsSeen(project, after);
}, 300_000);
