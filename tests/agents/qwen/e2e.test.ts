/**
 * The real Qwen Code 0.24.4, offline: `cpilot install qwen` wires the hooks into
 * .qwen/settings.json, a fake Chat Completions API scripts the model, and the test reads
 * what the model received next.
 */
import { describe, expect, test } from "bun:test";
import { proving } from "../../support/agent-matrix.ts";
import { e2eSessions, expectDelivered, runModeTests } from "../../support/e2e-sessions.ts";
import { QWEN_VERSION, qwenCli } from "./_qwen-cli.ts";

const sessions = e2eSessions(qwenCli);

const writeFile = (path: string, content: string) => ({
  tool: "write_file",
  args: { file_path: path, content },
});

describe("real Qwen Code with cpilot's hooks", () => {
  test("failure, formatter rewrite and gate refusal reach the model; the callbacks table comes at session start", async () => {
    const done = proving("qwen", QWEN_VERSION, ["failure", "resync", "refusal"]);
    const { run, texts, files } = await sessions.scripted(writeFile, []);
    expect(run.code).toBe(0);
    const told = expectDelivered(texts, files);
    // SessionStart additionalContext: the table of callbacks
    expect(told.first).toContain("cpilot runs these checks when you edit matching files");
    // PostToolUse additionalContext is appended to the tool's own output
    expect(told.afterBad).toContain("Successfully created and wrote to new file");
    expect(files.bad).toBe("export const a = BAD;\n");
    done();
  }, 200_000);

  test("the stop is held while a check it was told about fails, at most agent.maxStopBlocks times", async () => {
    const { run } = await sessions.stopGateHeld(writeFile, [], QWEN_VERSION);
    expect(run.code).toBe(0);
  }, 200_000);

  runModeTests(sessions, { name: "qwen", version: QWEN_VERSION, write: writeFile, install: [] });

  test("a background callback's failure reaches the model at a later call", async () => {
    await sessions.backgroundFailureLater(
      writeFile,
      {
        tool: "run_shell_command",
        // Qwen refuses a bare sleep without this comment
        args: { command: "sleep 4 # intentional-sleep: wait for a background check" },
      },
      [],
    );
  }, 200_000);
});
