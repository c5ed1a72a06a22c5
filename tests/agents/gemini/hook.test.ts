/** `cpilot hook gemini` through the built binary: payloads as Gemini CLI 0.61.0 sends them. */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { type AgentProject, agentProject, FORMAT, GATE, LINT, OK } from "./_agent-project.ts";

let project: AgentProject | undefined;
afterEach(() => project?.remove());

function make(config: unknown, files: Record<string, string> = {}): AgentProject {
  project = agentProject("gemini", config, files);
  return project;
}

const before = (p: AgentProject, tool: string, input: Record<string, unknown>) =>
  p.hook({ hook_event_name: "BeforeTool", tool_name: tool, tool_input: input });

const after = (p: AgentProject, file: string, created = false) =>
  p.hook({
    hook_event_name: "AfterTool",
    tool_name: "write_file",
    tool_input: { file_path: p.path(file), content: "x" },
    tool_response: {
      llmContent: created
        ? `Successfully created and wrote to new file: ${p.path(file)}.`
        : `Successfully overwrote file: ${p.path(file)}.`,
      returnDisplay: "",
    },
  });

describe("BeforeTool: the write gate", () => {
  test("deny: decision deny with the rule's reason, exit 0", () => {
    const p = make({ callbacks: [], gate: GATE });
    const r = before(p, "write_file", { file_path: p.path("locked/a.ts"), content: "x" });
    expect(r.code).toBe(0);
    expect(r.json).toEqual({
      decision: "deny",
      reason: expect.stringContaining("locked/ is read-only for agents"),
    });
  });

  test("built-in protection (.env) denies even with no rules", () => {
    const p = make({ callbacks: [] });
    const r = before(p, "replace", { file_path: p.path(".env"), old_string: "a", new_string: "b" });
    expect((r.json as { decision: string }).decision).toBe("deny");
  });

  test("allow: no output at all", () => {
    const p = make({ callbacks: [], gate: GATE });
    const r = before(p, "write_file", { file_path: p.path("src/a.ts"), content: "x" });
    expect(r).toMatchObject({ code: 0, stdout: "" });
  });

  test("modify write_file: hookSpecificOutput.tool_input with the plugin's content; the model hears at AfterTool", () => {
    const p = make({ callbacks: [], gate: GATE });
    const r = before(p, "write_file", { file_path: p.path("a.mod"), content: "mine\n" });
    expect(r.code).toBe(0);
    const json = r.json as { hookSpecificOutput: Record<string, unknown>; systemMessage: string };
    expect(json.hookSpecificOutput).toEqual({
      hookEventName: "BeforeTool",
      tool_input: { file_path: p.path("a.mod"), content: "MODIFIED\n" },
    });
    p.write({ "a.mod": "MODIFIED\n" });
    const post = p.hook({
      hook_event_name: "AfterTool",
      tool_name: "write_file",
      tool_input: { file_path: p.path("a.mod"), content: "MODIFIED\n" },
      tool_response: { llmContent: "ok" },
    });
    expect(contextOf(post.json)).toContain(
      "cpilot's write gate changed this write_file before it ran",
    );
  });

  test("modify replace on an existing file: one replacement of the whole current text", () => {
    const p = make({ callbacks: [], gate: GATE }, { "b.mod": "old text\n" });
    const r = before(p, "replace", {
      file_path: p.path("b.mod"),
      old_string: "old",
      new_string: "new",
    });
    expect((r.json as { hookSpecificOutput: unknown }).hookSpecificOutput).toEqual({
      hookEventName: "BeforeTool",
      tool_input: {
        file_path: p.path("b.mod"),
        old_string: "old text\n",
        new_string: "MODIFIED\n",
        allow_multiple: false,
      },
    });
  });

  test("modify replace on a missing file cannot be expressed: deny with the reason", () => {
    const p = make({ callbacks: [], gate: GATE });
    const r = before(p, "replace", { file_path: p.path("c.mod"), old_string: "", new_string: "x" });
    expect(r.json).toMatchObject({
      decision: "deny",
      reason: expect.stringContaining("Use write_file"),
    });
  });

  test("other tools are not gated", () => {
    const p = make({ callbacks: [], gate: GATE });
    expect(before(p, "run_shell_command", { command: "rm -rf locked" }).stdout).toBe("");
  });
});

function contextOf(json: unknown): string {
  return (
    (json as { hookSpecificOutput?: { additionalContext?: string } } | null)?.hookSpecificOutput
      ?.additionalContext ?? ""
  );
}

describe("AfterTool: callbacks", () => {
  test("failure: additionalContext with the callback's output, exit 0", () => {
    const p = make({ callbacks: [LINT] }, { "src/a.ts": "let x = BAD;\n" });
    const r = after(p, "src/a.ts", true);
    expect(r.code).toBe(0);
    expect(Object.keys(r.json as object)).toEqual(["hookSpecificOutput"]);
    const text = contextOf(r.json);
    expect(text).toContain("checks failed");
    expect(text).toContain("'lint' failed on src/a.ts");
    expect(text).toContain("BAD in src/a.ts");
  });

  test("success with a message: additionalContext; success without one: no output", () => {
    const p = make({ callbacks: [LINT, OK] }, { "a.ok": "1", "b.ts": "fine\n" });
    expect(contextOf(after(p, "a.ok").json)).toBe("✓ 'types' passed on a.ok: types are fine");
    expect(after(p, "b.ts").stdout).toBe("");
  });

  test("resync: a formatter's rewrite comes back as a diff", () => {
    const p = make({ callbacks: [FORMAT] }, { "x.fmt": "hello\n" });
    const r = after(p, "x.fmt");
    expect(readFileSync(p.path("x.fmt"), "utf8")).toBe("HELLO\n");
    const text = contextOf(r.json);
    expect(text).toContain("x.fmt");
    expect(text).toContain("-hello");
    expect(text).toContain("+HELLO");
  });

  test("a tool error means no edit: no callbacks run", () => {
    const p = make({ callbacks: [LINT] }, { "src/a.ts": "BAD\n" });
    const r = p.hook({
      hook_event_name: "AfterTool",
      tool_name: "replace",
      tool_input: { file_path: p.path("src/a.ts"), old_string: "zz", new_string: "y" },
      tool_response: { llmContent: "Failed to edit", error: "0 occurrences found" },
    });
    expect(r.stdout).toBe("");
  });

  test("background results wait in the inbox and come with the next AfterTool", async () => {
    const bg = {
      name: "slow",
      pattern: "**/*.bg",
      blocking: false,
      run: "echo slow-broke; exit 3",
    };
    const p = make({ callbacks: [bg] }, { "a.bg": "1", "b.ts": "ok\n" });
    const first = contextOf(after(p, "a.bg").json);
    expect(first).toContain("'slow' started in background");
    let later = "";
    for (let i = 0; i < 100 && !later.includes("slow-broke"); i++) {
      await Bun.sleep(100);
      later += contextOf(after(p, "b.ts").json);
    }
    expect(later).toContain("slow-broke");
  });

  test("broken config: the model is told once per session, stderr every time; the gate still protects", () => {
    const p = make({ callbacks: [{ name: "x", pattern: "*", run: "true" }] });
    const one = after(p, "a.ts");
    expect(contextOf(one.json)).toContain("config is broken");
    expect(one.stderr).toContain("callbacks[0].timeout");
    const two = after(p, "a.ts");
    expect(two.stdout).toBe("");
    expect(two.stderr).toContain("callbacks[0].timeout");
    expect(
      (
        before(p, "write_file", { file_path: p.path(".env"), content: "" }).json as {
          decision: string;
        }
      ).decision,
    ).toBe("deny");
  });

  test("no config: silence; bad stdin: a note on stderr, exit 0", () => {
    const p = make(null);
    expect(after(p, "a.ts")).toMatchObject({ code: 0, stdout: "" });
    const bad = agentProject("gemini", { callbacks: [] });
    project = bad;
    const r = bad.hook({ hook_event_name: 3 } as never);
    // the event cannot be read, so it may be a write: denied in BeforeTool's form
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ decision: "deny" });
    expect(r.stderr).toContain("Cannot read the hook input");
    expect(existsSync(bad.path(".cpilot/inbox"))).toBe(false);
    p.remove();
  });
});

describe("BeforeAgent: context with each prompt", () => {
  test("the callbacks table once per session, then waiting results every time", () => {
    const p = make({ callbacks: [LINT] });
    const prompt = () => p.hook({ hook_event_name: "BeforeAgent", prompt: "go" });
    const first = contextOf(prompt().json);
    expect(first).toContain("cpilot runs these checks when you edit matching files");
    expect(first).toContain("| lint | **/*.ts | blocking, per batch |");
    expect(prompt().stdout).toBe("");
  });
});
