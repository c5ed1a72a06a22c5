/**
 * An edit tool's call notes its file in the record of the turn once, through `cpilot hook
 * gemini` (the tool-hook kit that Gemini CLI, Qwen Code and Copilot CLI share).
 */
import { afterEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AgentProject, agentProject, LINT } from "../agents/gemini/_agent-project.ts";
import { privateRecords } from "../attacks/_codex-shell-turn.ts";

let project: AgentProject | undefined;
afterEach(() => project?.remove());

test("one edit tool call adds one line to the record of the turn", () => {
  const p = agentProject("gemini", { callbacks: [LINT] }, { "src/a.ts": "export const a = 1;\n" });
  project = p;
  p.hook({ hook_event_name: "BeforeAgent", prompt: "go" });
  const record = join(privateRecords(p), "tree-snapshot.json");
  const lines = () => readFileSync(record, "utf8").split("\n").length;
  const before = lines();
  writeFileSync(p.path("src/b.ts"), "export const b = 1;\n");
  p.hook({
    hook_event_name: "AfterTool",
    tool_name: "write_file",
    tool_input: { file_path: p.path("src/b.ts"), content: "x" },
    tool_response: {
      llmContent: `Successfully created and wrote to new file: ${p.path("src/b.ts")}.`,
      returnDisplay: "",
    },
  });
  expect(lines() - before).toBe(1);
});
