/** `cpilot hook copilot` through the built binary: payloads as Copilot CLI 1.0.102 sends them (no event name). */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { type AgentProject, agentProject, FORMAT, GATE, LINT } from "../gemini/_agent-project.ts";

let project: AgentProject | undefined;
afterEach(() => project?.remove());

function make(config: unknown, files: Record<string, string> = {}): AgentProject {
  project = agentProject("copilot", config, files, (dir) => ({ sessionId: "s1", cwd: dir }));
  return project;
}

const pre = (p: AgentProject, toolName: string, toolArgs: unknown) =>
  p.hook({ timestamp: 1, toolName, toolArgs });
const post = (p: AgentProject, toolName: string, toolArgs: unknown, resultType = "success") =>
  p.hook({ timestamp: 1, toolName, toolArgs, toolResult: { resultType, textResultForLlm: "ok" } });

describe("preToolUse: the write gate", () => {
  test("deny: permissionDecision deny with the rule's reason", () => {
    const p = make({ callbacks: [], gate: GATE });
    const r = pre(p, "create", { path: p.path("locked/a.ts"), file_text: "x" });
    expect(r.code).toBe(0);
    expect(r.json).toEqual({
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringContaining("locked/ is read-only for agents"),
    });
  });

  test("toolArgs as a JSON string (Copilot's docs) is read too", () => {
    const p = make({ callbacks: [], gate: GATE });
    const r = pre(
      p,
      "edit",
      JSON.stringify({ path: p.path("locked/a.ts"), old_str: "a", new_str: "b" }),
    );
    expect((r.json as { permissionDecision: string }).permissionDecision).toBe("deny");
  });

  test("a plugin's rewrite goes in as modifiedArgs, with no permission granted", () => {
    const p = make({ callbacks: [], gate: GATE });
    const r = pre(p, "create", { path: p.path("a.mod"), file_text: "mine\n" });
    expect(r.json).toEqual({ modifiedArgs: { path: p.path("a.mod"), file_text: "MODIFIED\n" } });
  });

  test("a plugin's rewrite of an edit replaces the whole file; on an empty file it is denied", () => {
    const p = make({ callbacks: [], gate: GATE }, { "a.mod": "old\n", "b.mod": "" });
    const edit = (name: string) =>
      pre(p, "edit", { path: p.path(name), old_str: "old", new_str: "new" }).json;
    expect(edit("a.mod")).toEqual({
      modifiedArgs: { path: p.path("a.mod"), old_str: "old\n", new_str: "MODIFIED\n" },
    });
    const json = edit("b.mod") as { permissionDecision: string; permissionDecisionReason: string };
    expect(json.permissionDecision).toBe("deny");
    expect(json.permissionDecisionReason).toContain("MODIFIED");
  });

  test("allow and other tools: nothing on stdout", () => {
    const p = make({ callbacks: [], gate: GATE });
    expect(pre(p, "create", { path: p.path("src/a.ts"), file_text: "x" }).stdout).toBe("");
    expect(pre(p, "bash", { command: "rm -rf locked" }).stdout).toBe("");
  });
});

describe("postToolUse: callbacks as a top-level additionalContext", () => {
  test("a failure, beside the tool's output (never decision block)", () => {
    const p = make({ callbacks: [LINT] }, { "src/a.ts": "BAD\n" });
    const r = post(p, "create", { path: p.path("src/a.ts"), file_text: "BAD\n" });
    expect(r.json).toEqual({ additionalContext: expect.stringContaining("BAD in src/a.ts") });
  });

  test("a formatter's rewrite is told; a failed tool call runs nothing", () => {
    const p = make({ callbacks: [FORMAT] }, { "n.fmt": "hello\n" });
    const r = post(p, "edit", { path: p.path("n.fmt"), old_str: "a", new_str: "hello" });
    expect(readFileSync(p.path("n.fmt"), "utf8")).toBe("HELLO\n");
    expect((r.json as { additionalContext: string }).additionalContext).toContain("HELLO");
    const failed = post(
      p,
      "edit",
      { path: p.path("n.fmt"), old_str: "a", new_str: "b" },
      "failure",
    );
    expect(failed.stdout).toBe("");
  });
});

describe("sessionStart and userPromptSubmitted", () => {
  test("the callbacks table once per session", () => {
    const p = make({ callbacks: [LINT] });
    const first = p.hook({ timestamp: 1, source: "new", initialPrompt: "hi" });
    expect((first.json as { additionalContext: string }).additionalContext).toContain("| lint |");
    const again = p.hook({ timestamp: 2, prompt: "more" });
    expect(again.stdout).toBe("");
    expect(existsSync(p.path(".cpilot"))).toBe(true);
  });
});

describe("agentStop: the stop gate", () => {
  test("held while the check still fails; a subagent's stop too, with its own count", () => {
    const p = make({ agent: { maxStopBlocks: 1 }, callbacks: [LINT] }, { "src/a.ts": "BAD\n" });
    post(p, "create", { path: p.path("src/a.ts"), file_text: "BAD\n" });
    const subStop = { stopReason: "end_turn", agentName: "x", agentType: "y" };
    const sub = p.hook({ timestamp: 2, ...subStop });
    expect(sub.json).toEqual({
      decision: "block",
      reason: expect.stringContaining("BAD in src/a.ts"),
    });
    // the subagent's one held stop is spent; the session's is its own
    expect(p.hook({ timestamp: 3, ...subStop }).stdout).toBe("");
    const held = p.hook({ timestamp: 3, stopReason: "end_turn", transcriptPath: "/nowhere" });
    expect(held.json).toEqual({
      decision: "block",
      reason: expect.stringContaining("BAD in src/a.ts"),
    });
    p.write({ "src/a.ts": "fine\n" });
    const fixed = p.hook({ timestamp: 4, stopReason: "end_turn", stopHookActive: true });
    expect(fixed.stdout).toBe("");
  });
});

describe("shell edits: postToolUse on bash", () => {
  test("a file an edit tool wrote is not taken for the shell's; one the shell wrote is", () => {
    const p = make({ callbacks: [LINT] }, { "src/.keep": "" });
    p.hook({ timestamp: 1, prompt: "go" });
    p.write({ "src/a.ts": "export const a = 1;\n" });
    post(p, "create", { path: p.path("src/a.ts"), file_text: "export const a = 1;\n" });
    const quiet = post(p, "bash", { command: "ls", description: "look" });
    expect(quiet.stdout).toBe("");
    p.write({ "src/b.ts": "BAD\n" });
    const told = post(p, "bash", { command: "echo BAD > src/b.ts", description: "write" });
    const text = (told.json as { additionalContext: string }).additionalContext;
    expect(text).toContain("files your command changed: src/b.ts");
    expect(text).toContain("BAD in src/b.ts");
    expect(text).not.toContain("src/a.ts");
  });
});
