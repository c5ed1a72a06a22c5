/**
 * The real GitHub Copilot CLI 1.0.102, offline: `cpilot install copilot --trust-project`
 * wires the hooks (and trusts the folder, without which Copilot loads none), a fake Chat
 * Completions API scripts the model, and the test reads what the model received next.
 */
import { describe, expect, test } from "bun:test";
import { proving } from "../../support/agent-matrix.ts";
import { e2eSessions, expectDelivered, runModeTests } from "../../support/e2e-sessions.ts";
import { COPILOT_VERSION, copilotCli } from "./_copilot-cli.ts";

const sessions = e2eSessions(copilotCli);

const create = (path: string, content: string) => ({
  tool: "create",
  args: { path, file_text: content },
});

describe("real Copilot CLI with cpilot's hooks", () => {
  test("failure, formatter rewrite and gate refusal reach the model; the callbacks table comes at session start", async () => {
    const done = proving("copilot", COPILOT_VERSION, ["failure", "resync", "refusal"]);
    const { run, installed, texts, files } = await sessions.scripted(create, ["--trust-project"]);
    expect(installed?.stderr).toContain("Copilot CLI now trusts this folder");
    expect(run.code).toBe(0);
    const told = expectDelivered(texts, files);
    // sessionStart additionalContext: the table of callbacks
    expect(told.first).toContain("cpilot runs these checks when you edit matching files");
    // postToolUse additionalContext is appended to the tool's own output
    expect(told.afterBad).toContain("Created file");
    expect(files.bad).toBe("export const a = BAD;\n");
    // the gate: the model is told why
    expect(told.afterRefused).toContain("Denied by preToolUse hook");
    done();
  }, 200_000);

  test("the stop is held while a check it was told about fails, at most agent.maxStopBlocks times", async () => {
    const { run } = await sessions.stopGateHeld(create, ["--trust-project"], COPILOT_VERSION);
    expect(run.code).toBe(0);
  }, 200_000);

  runModeTests(sessions, {
    name: "copilot",
    version: COPILOT_VERSION,
    write: create,
    install: ["--trust-project"],
  });

  test("a background callback's failure reaches the model at a later call", async () => {
    await sessions.backgroundFailureLater(
      create,
      { tool: "bash", args: { command: "sleep 4", description: "wait" } },
      ["--trust-project"],
    );
  }, 200_000);
});
