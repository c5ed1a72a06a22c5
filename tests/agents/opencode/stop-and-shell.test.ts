/**
 * The real OpenCode 1.18.33, offline, with cpilot's plugin: the stop gate (the plugin holds
 * the end of a turn by handing the model the reason as its next message) and files the
 * model writes through its `bash` tool, checked like an edit.
 */
import { describe, expect, test } from "bun:test";
import { e2eSessions } from "../../support/e2e-sessions.ts";
import { afterLastTurn } from "../../support/fake-openai.ts";
import {
  lintAndFormatThroughShell,
  protectedThroughShell,
  type ShellStep,
} from "../../support/shell-edits-session.ts";
import { agentProject, LINT } from "../gemini/_agent-project.ts";
import { OPENCODE_VERSION, opencodeCli } from "./_opencode-cli.ts";

const sessions = e2eSessions(opencodeCli);

const write = (path: string, content: string) => ({
  tool: "write",
  args: { filePath: path, content },
});
const bash: ShellStep = (command) => ({ tool: "bash", args: { command, description: "run it" } });

describe("real OpenCode: stop gate and shell edits", () => {
  test("the stop is held while a check it was told about fails, at most agent.maxStopBlocks times", async () => {
    const { run } = await sessions.stopGateHeld(write, [], OPENCODE_VERSION);
    expect(run.code).toBe(0);
  }, 200_000);

  test("a message with text and a tool call is not a stop, even while a check fails", async () => {
    const project = agentProject("opencode", { callbacks: [LINT] }, { "src/.keep": "" });
    const script = [
      [write(project.path("src/a.ts"), "export const a = BAD;\n")],
      [{ text: "let me look" }, bash("ls src")],
      [write(project.path("src/a.ts"), "export const a = 1;\n")],
      [{ text: "done" }],
    ];
    const s = await sessions.start(project, script, []);
    const run = await s.run("go");
    expect(run.code).toBe(0);
    const after = s.api.turns().map((t) => afterLastTurn(t as never));
    expect(after[1]).toContain("BAD in src/a.ts");
    expect(after.join("\n")).not.toContain("do not stop yet");
    expect(after).toHaveLength(4);
  }, 200_000);

  test("a lint error and a formatted file written through bash reach the model; the stop is held", async () => {
    await lintAndFormatThroughShell(sessions, "opencode", bash, []);
  }, 200_000);

  test(".env written through bash is reported as a protected file changed and holds the stop", async () => {
    await protectedThroughShell(sessions, "opencode", bash, []);
  }, 200_000);
});
