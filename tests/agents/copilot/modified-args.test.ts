/**
 * A write-gate plugin's change with the real Copilot CLI 1.0.102, offline: cpilot answers
 * preToolUse with `modifiedArgs`, Copilot writes the changed file, and the model reads what
 * was written with that call's result.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { e2eSessions } from "../../support/e2e-sessions.ts";
import { afterLastTurn } from "../../support/fake-openai.ts";
import { agentProject, GATE } from "../gemini/_agent-project.ts";
import { copilotCli } from "./_copilot-cli.ts";

const sessions = e2eSessions(copilotCli);

test("a plugin's rewrite is applied through modifiedArgs and told after the edit", async () => {
  const project = agentProject("copilot", { callbacks: [], gate: GATE }, { "src/.keep": "" });
  const script = [
    [{ tool: "create", args: { path: project.path("src/a.mod"), file_text: "mine\n" } }],
    [{ text: "done" }],
  ];
  const s = await sessions.start(project, script, ["--trust-project"]);
  const run = await s.run("write it");
  expect(run.code).toBe(0);
  expect(s.api.escapes().map((r) => r.path)).toEqual([]);
  expect(readFileSync(project.path("src/a.mod"), "utf8")).toBe("MODIFIED\n");
  const after = afterLastTurn(s.api.turns()[1] as never);
  expect(after).toContain("cpilot's write gate changed this create before it ran");
  // `after` is the request's JSON: the note's line breaks are escaped there
  expect(after).toContain("src/a.mod now holds:\\n```\\nMODIFIED\\n");
  expect(after).not.toContain("Denied by preToolUse hook");
}, 200_000);
