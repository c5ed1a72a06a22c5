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

  test("a tool round's UserPromptSubmit (same prompt_id) is not a new turn: a file written in the turn outside any tool still holds the stop", () => {
    const p = make({ callbacks: [LINT] }, { "src/.keep": "" });
    const prompt = (text: string, id: string) =>
      p.hook({ hook_event_name: "UserPromptSubmit", prompt: text, prompt_id: id });
    prompt("do it", "s1########0");
    // written in the turn by nothing cpilot hooks (a background job the agent started)
    p.write({ "src/a.ts": "export const a = BAD;\n" });
    // Qwen fires UserPromptSubmit again after each tool round, with the same prompt_id
    prompt("", "s1########0");
    const stop = p.hook({ hook_event_name: "Stop", stop_hook_active: false });
    expect(stop.json).toEqual({
      decision: "block",
      reason: expect.stringContaining("BAD in src/a.ts"),
    });
    // the person's next prompt is a new turn: what is on disk then is theirs
    p.write({ "src/b.ts": "export const b = BAD;\n" });
    prompt("next", "s1########1");
    const shell = p.hook({
      hook_event_name: "PostToolUse",
      tool_name: "run_shell_command",
      tool_input: { command: "true" },
      tool_response: { llmContent: "Exit Code: 0" },
    });
    expect(shell.stdout).not.toContain("b.ts");
  });
});
