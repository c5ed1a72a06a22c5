/**
 * Files the model writes through Copilot CLI's `bash` tool (1.0.102, real CLI, offline):
 * checked like an edit in that call's result, told when a formatter rewrote them, and
 * holding the stop (agentStop) while they fail or a protected file stays changed.
 */
import { describe, test } from "bun:test";
import { e2eSessions } from "../../support/e2e-sessions.ts";
import {
  lintAndFormatThroughShell,
  protectedThroughShell,
  type ShellStep,
} from "../../support/shell-edits-session.ts";
import { copilotCli } from "./_copilot-cli.ts";

const sessions = e2eSessions(copilotCli);
const bash: ShellStep = (command) => ({ tool: "bash", args: { command, description: "run it" } });
const install = ["--trust-project"];

describe("real Copilot CLI: shell edits", () => {
  test("a lint error and a formatted file written through bash reach the model; the stop is held", async () => {
    await lintAndFormatThroughShell(sessions, "copilot", bash, install);
  }, 200_000);

  test(".env written through bash is reported as a protected file changed and holds the stop", async () => {
    await protectedThroughShell(sessions, "copilot", bash, install);
  }, 200_000);
});
