/**
 * The real OpenCode 1.18.33, offline: `cpilot install opencode` writes its plugin
 * (.opencode/plugins/cpilot.ts), a fake Chat Completions API scripts the model, and the
 * test reads what the model received next.
 */
import { describe, expect, test } from "bun:test";
import { proving } from "../../support/agent-matrix.ts";
import { e2eSessions, expectDelivered, runModeTests } from "../../support/e2e-sessions.ts";
import { OPENCODE_VERSION, opencodeCli } from "./_opencode-cli.ts";

const sessions = e2eSessions(opencodeCli);

const write = (path: string, content: string) => ({
  tool: "write",
  args: { filePath: path, content },
});

describe("real OpenCode with cpilot's plugin", () => {
  test("failure, formatter rewrite and gate refusal reach the model", async () => {
    const done = proving("opencode", OPENCODE_VERSION, ["failure", "resync", "refusal"]);
    const { run, texts, files } = await sessions.scripted(write, []);
    expect(run.code).toBe(0);
    expect(expectDelivered(texts, files).afterBad).toContain("Wrote file successfully");
    expect(files.bad).toBe("export const a = BAD;\n");
    done();
  }, 200_000);

  runModeTests(sessions, { name: "opencode", version: OPENCODE_VERSION, write, install: [] });
});
