/** `cpilot hook qwen` through the built binary: payloads as Qwen Code 0.24.4 sends them. */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { type AgentProject, agentProject, FORMAT, GATE, LINT } from "../gemini/_agent-project.ts";

let project: AgentProject | undefined;
afterEach(() => project?.remove());

function make(config: unknown, files: Record<string, string> = {}): AgentProject {
  project = agentProject("qwen", config, files);
  return project;
}

const pre = (p: AgentProject, tool: string, input: Record<string, unknown>) =>
  p.hook({ hook_event_name: "PreToolUse", tool_name: tool, tool_input: input });
const post = (p: AgentProject, file: string) =>
  p.hook({
    hook_event_name: "PostToolUse",
    tool_name: "write_file",
    tool_input: { file_path: p.path(file), content: "x" },
    tool_response: { llmContent: `Successfully overwrote file: ${p.path(file)}.` },
  });

describe("qwen hooks", () => {
  test("PreToolUse deny: Claude Code's form with the rule's reason", () => {
    const p = make({ callbacks: [], gate: GATE });
    const r = pre(p, "write_file", { file_path: p.path("locked/a.ts"), content: "x" });
    expect(r.json).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: expect.stringContaining("locked/ is read-only for agents"),
      },
    });
    expect(
      pre(p, "edit", { file_path: p.path("src/a.ts"), old_string: "a", new_string: "b" }).stdout,
    ).toBe("");
  });

  test("PostToolUse: failures and a formatter's rewrite as additionalContext (Qwen ignores decision block)", () => {
    const p = make({ callbacks: [LINT, FORMAT] }, { "src/a.ts": "BAD\n", "n.fmt": "hello\n" });
    const bad = post(p, "src/a.ts").json as { hookSpecificOutput: { additionalContext: string } };
    expect(bad.hookSpecificOutput.additionalContext).toContain("BAD in src/a.ts");
    const fmt = post(p, "n.fmt").json as { hookSpecificOutput: { additionalContext: string } };
    expect(readFileSync(p.path("n.fmt"), "utf8")).toBe("HELLO\n");
    expect(fmt.hookSpecificOutput.additionalContext).toContain("HELLO");
  });

  test("SessionStart: the callbacks table", () => {
    const p = make({ callbacks: [LINT] });
    const r = p.hook({ hook_event_name: "SessionStart", source: "startup" });
    expect(r.json).toEqual({
      hookSpecificOutput: {
        hookEventName: "SessionStart",
        additionalContext: expect.stringContaining("| lint |"),
      },
    });
  });
});
