/** `cpilot hook cursor` through the built binary: preToolUse, afterFileEdit, postToolUse. */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { type AgentProject, agentProject, GATE, LINT, OK } from "../gemini/_agent-project.ts";

let project: AgentProject | undefined;
afterEach(() => project?.remove());

function make(config: unknown, files: Record<string, string> = {}): AgentProject {
  project = agentProject("cursor", config, files, (dir) => ({
    conversation_id: "conv-1",
    generation_id: "gen-1",
    workspace_roots: [dir],
  }));
  return project;
}

const pre = (p: AgentProject, tool: string, input: Record<string, unknown>) =>
  p.hook({ hook_event_name: "preToolUse", tool_name: tool, tool_input: input });
const post = (p: AgentProject, tool: string, input: Record<string, unknown>) =>
  p.hook({ hook_event_name: "postToolUse", tool_name: tool, tool_input: input, tool_output: "ok" });
const afterEdit = (p: AgentProject, file: string) =>
  p.hook({
    hook_event_name: "afterFileEdit",
    file_path: p.path(file),
    edits: [{ old_string: "", new_string: "x" }],
  });

describe("preToolUse: the write gate", () => {
  test("deny: permission deny, the reason as agent_message", () => {
    const p = make({ callbacks: [], gate: GATE });
    const r = pre(p, "Write", { file_path: p.path("locked/a.ts"), contents: "x" });
    expect(r.code).toBe(0);
    expect(r.json).toEqual({
      permission: "deny",
      agent_message: expect.stringContaining("locked/ is read-only for agents"),
    });
  });

  test("allow: {} (no opinion, Cursor's own approvals still apply)", () => {
    const p = make({ callbacks: [], gate: GATE });
    expect(
      pre(p, "Edit", { file_path: p.path("a.ts"), old_string: "a", new_string: "b" }).json,
    ).toEqual({});
    expect(pre(p, "Shell", { command: "ls" }).json).toEqual({});
  });

  test("modify: permission allow with updated_input in the tool's own keys", () => {
    const p = make({ callbacks: [], gate: GATE }, { "e.mod": "before\n" });
    const w = pre(p, "Write", { file_path: p.path("w.mod"), contents: "mine" });
    expect(w.json).toEqual({
      permission: "allow",
      updated_input: { file_path: p.path("w.mod"), contents: "MODIFIED\n" },
      agent_message: expect.stringContaining("write gate changed this Write"),
    });
    const e = pre(p, "StrReplace", {
      path: p.path("e.mod"),
      old_string: "before",
      new_string: "after",
    });
    expect((e.json as { updated_input: unknown }).updated_input).toEqual({
      path: p.path("e.mod"),
      old_string: "before\n",
      new_string: "MODIFIED\n",
      replace_all: false,
    });
  });
});

describe("afterFileEdit and postToolUse", () => {
  test("afterFileEdit runs the callbacks (no output), the result comes with the next postToolUse", () => {
    const p = make({ callbacks: [LINT] }, { "src/a.ts": "BAD\n" });
    const fired = afterEdit(p, "src/a.ts");
    expect(fired).toMatchObject({ code: 0, json: {} });
    const next = post(p, "Read", { path: p.path("src/a.ts") });
    expect(next.json).toEqual({ additional_context: expect.stringContaining("BAD in src/a.ts") });
    expect(post(p, "Read", { path: "x" }).json).toEqual({});
  });

  test("postToolUse on an edit runs the callbacks itself when afterFileEdit has not", () => {
    const p = make({ callbacks: [LINT, OK] }, { "src/b.ts": "BAD\n", "c.ok": "1" });
    const r = post(p, "Write", { file_path: p.path("src/b.ts"), contents: "BAD\n" });
    expect((r.json as { additional_context: string }).additional_context).toContain(
      "'lint' failed on src/b.ts",
    );
    expect(post(p, "Edit", { file_path: p.path("c.ok") }).json).toEqual({
      additional_context: "✓ 'types' passed on c.ok: types are fine",
    });
  });

  test("one edit seen by both events runs its callbacks once", () => {
    const p = make(
      { callbacks: [{ ...LINT, run: `echo run >> ${"$CP_PROJECT_ROOT"}/runs.log; exit 1` }] },
      { "d.ts": "x\n" },
    );
    afterEdit(p, "d.ts");
    const r = post(p, "Write", { file_path: p.path("d.ts"), contents: "x\n" });
    expect((r.json as { additional_context: string }).additional_context).toContain(
      "'lint' failed on d.ts",
    );
    expect(readFileSync(p.path("runs.log"), "utf8")).toBe("run\n");
  });

  test("broken config: told once through postToolUse; stderr every time", () => {
    const p = make({ callbacks: [{ name: "x", pattern: "*", run: "true" }] });
    const one = post(p, "Write", { file_path: p.path("a.ts") });
    expect((one.json as { additional_context: string }).additional_context).toContain(
      "config is broken",
    );
    const two = post(p, "Write", { file_path: p.path("a.ts") });
    expect(two.json).toEqual({});
    expect(two.stderr).toContain("callbacks[0].timeout");
  });
});
