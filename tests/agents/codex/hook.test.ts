/** `cpilot hook codex` through the built binary, with apply_patch payloads (Claude Code's schema). */
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, realpathSync, writeFileSync } from "node:fs";
import { postNotice } from "../../../src/agent-session/inbox.ts";
import {
  type AgentProject,
  agentProject,
  FORMAT,
  GATE,
  LINT,
  OK,
} from "../gemini/_agent-project.ts";

let project: AgentProject | undefined;
afterEach(() => project?.remove());

function make(config: unknown, files: Record<string, string> = {}): AgentProject {
  project = agentProject("codex", config, files);
  return project;
}

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n");
const call = (p: AgentProject, event: string, command: string, cwd?: string) =>
  p.hook({
    hook_event_name: event,
    tool_name: "apply_patch",
    tool_input: { command },
    tool_use_id: "call_1",
    ...(cwd === undefined ? {} : { cwd }),
  });

/** Keys Codex's output schemas allow (it rejects anything else). */
const PRE_KEYS = [
  "hookEventName",
  "permissionDecision",
  "permissionDecisionReason",
  "updatedInput",
  "additionalContext",
];

describe("PreToolUse: the gate on every file of the patch", () => {
  test("deny when any file is denied; exit 0; only documented fields", () => {
    const p = make({ callbacks: [], gate: GATE });
    const r = call(
      p,
      "PreToolUse",
      patch("*** Add File: ok.ts", "+1", "*** Update File: locked/b.ts", "@@", "-a", "+b"),
    );
    expect(r.code).toBe(0);
    expect(r.json).toEqual({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: expect.stringContaining("locked/ is read-only for agents"),
      },
    });
  });

  test("relative patch paths are gated where Codex applies them: below its working folder", () => {
    const p = make({ callbacks: [], gate: GATE }, { "locked/keep.txt": "", "sub/keep.txt": "" });
    const inLocked = call(p, "PreToolUse", patch("*** Add File: lib.ts", "+x"), p.path("locked"));
    expect(
      (inLocked.json as { hookSpecificOutput: Record<string, string> }).hookSpecificOutput,
    ).toMatchObject({ permissionDecision: "deny" });
    // a plugin's rewrite keeps the path as Codex reads it: relative to its folder
    const inSub = call(p, "PreToolUse", patch("*** Add File: a.mod", "+mine"), p.path("sub"));
    expect(
      (inSub.json as { hookSpecificOutput: { updatedInput: unknown } }).hookSpecificOutput
        .updatedInput,
    ).toEqual({ command: patch("*** Add File: a.mod", "+MODIFIED") });
  });

  test("a Move to into a denied place is denied", () => {
    const p = make({ callbacks: [], gate: GATE });
    const r = call(
      p,
      "PreToolUse",
      patch("*** Update File: free.ts", "*** Move to: locked/free.ts"),
    );
    expect(
      (r.json as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput
        .permissionDecision,
    ).toBe("deny");
  });

  test("allow: no output", () => {
    const p = make({ callbacks: [], gate: GATE });
    expect(call(p, "PreToolUse", patch("*** Add File: fine name.ts", "+x"))).toMatchObject({
      code: 0,
      stdout: "",
    });
  });

  test("modify an added file: updatedInput with the rewritten patch", () => {
    const p = make({ callbacks: [], gate: GATE });
    const r = call(
      p,
      "PreToolUse",
      patch("*** Add File: a.mod", "+mine", "*** Add File: b.ts", "+x"),
    );
    const out = (r.json as { hookSpecificOutput: Record<string, unknown> }).hookSpecificOutput;
    expect(Object.keys(r.json as object)).toEqual(["hookSpecificOutput"]);
    for (const key of Object.keys(out)) expect(PRE_KEYS).toContain(key);
    expect(out.permissionDecision).toBe("allow");
    expect(out.updatedInput).toEqual({
      command: patch("*** Add File: a.mod", "+MODIFIED", "*** Add File: b.ts", "+x"),
    });
    expect(out.additionalContext).toContain("write gate changed this apply_patch");
  });

  test("modify an updated file cannot be carried in a patch: deny with the reason", () => {
    const p = make({ callbacks: [], gate: GATE }, { "u.mod": "a\n" });
    const r = call(p, "PreToolUse", patch("*** Update File: u.mod", "@@", "-a", "+b"));
    expect(
      (r.json as { hookSpecificOutput: Record<string, string> }).hookSpecificOutput,
    ).toMatchObject({
      permissionDecision: "deny",
      permissionDecisionReason: expect.stringContaining("only a whole new file"),
    });
  });

  test("a patch under another tool name (a shell heredoc) is still gated", () => {
    const p = make({ callbacks: [], gate: GATE });
    const command = [
      "bash",
      "-lc",
      `apply_patch <<'EOF'\n${patch("*** Add File: locked/h.ts", "+x")}EOF`,
    ];
    const r = p.hook({
      hook_event_name: "PreToolUse",
      tool_name: "shell",
      tool_input: { command },
    });
    expect(
      (r.json as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput
        .permissionDecision,
    ).toBe("deny");
  });

  test("shell commands that are no patch: no output", () => {
    const p = make({ callbacks: [], gate: GATE });
    for (const command of [["rm", "x"], "rg apply_patch src", "ls -la"])
      expect(
        p.hook({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command } })
          .stdout,
      ).toBe("");
  });

  test("a tab inside a path is dropped as Codex drops it: .e<TAB>nv is the secret .env", () => {
    const p = make({ callbacks: [] });
    const r = call(p, "PreToolUse", patch("*** Add File: .e\tnv", "+TOKEN=x"));
    expect(r.json).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
  });

  test("an apply_patch input Codex would refuse is refused, with the reason", () => {
    const p = make({ callbacks: [], gate: GATE });
    const r = call(p, "PreToolUse", "not a patch");
    expect(r.json).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    expect(JSON.stringify(r.json)).toContain("*** Begin Patch");
  });
});

describe("PreToolUse on the shell tool: the patches Codex applies from it", () => {
  const bash = (p: AgentProject, command: string, cwd?: string) =>
    p.hook({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command },
      ...(cwd === undefined ? {} : { cwd }),
    });
  const heredoc = (...lines: string[]) => `apply_patch <<'EOF'\n${patch(...lines)}EOF\n`;

  test("a heredoc patch is gated like the tool's; `cd <dir> &&` moves its base folder", () => {
    const p = make({ callbacks: [], gate: GATE }, { "locked/keep.txt": "" });
    const denied = bash(p, heredoc("*** Add File: locked/x.ts", "+x"));
    expect(denied.json).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    expect(bash(p, heredoc("*** Add File: src/x.ts", "+x")).stdout).toBe("");
    const viaCd = bash(p, `cd locked && ${heredoc("*** Add File: x.ts", "+x")}`);
    expect(viaCd.json).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    const git = bash(p, `cd .git && ${heredoc("*** Add File: hooks/pre-commit", "+#!/bin/sh")}`);
    expect(git.json).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
  });

  test("a command that names apply_patch in a form cpilot cannot read as Codex does is refused", () => {
    const p = make({ callbacks: [], gate: GATE });
    for (const command of [
      `echo hi; ${heredoc("*** Add File: a.ts", "+x")}`,
      heredoc("*** Add File: a.ts", "+x").replace("<<'EOF'", "<<-EOF"),
      `cd ~ && ${heredoc("*** Add File: a.ts", "+x")}`,
    ]) {
      const r = bash(p, command);
      expect(r.json).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
      expect(JSON.stringify(r.json)).toContain("apply_patch tool");
    }
  });
});

describe("PostToolUse: callbacks on the patched files", () => {
  test("failure: additionalContext, never decision block (which replaces the tool's own output)", () => {
    const p = make({ callbacks: [LINT] }, { "src/my file.ts": "BAD\n", "src/b.ts": "ok\n" });
    const r = call(
      p,
      "PostToolUse",
      patch("*** Add File: src/my file.ts", "+BAD", "*** Update File: src/b.ts", "@@", "-x", "+ok"),
    );
    expect(r.code).toBe(0);
    expect(r.json).toEqual({
      hookSpecificOutput: {
        hookEventName: "PostToolUse",
        additionalContext: expect.stringContaining("BAD in src/my file.ts"),
      },
    });
  });

  test(".cpilot a file, not a folder: the failure still reaches the model, with a note", () => {
    const p = make({ callbacks: [LINT] }, { "src/a.ts": "BAD\n" });
    writeFileSync(p.path(".cpilot"), "not a folder\n");
    const r = call(p, "PostToolUse", patch("*** Add File: src/a.ts", "+BAD"));
    expect(r.code).toBe(0);
    const context = (r.json as { hookSpecificOutput: { additionalContext: string } })
      .hookSpecificOutput.additionalContext;
    expect(context).toContain("BAD in src/a.ts");
    expect(context).toContain("state could not be saved in .cpilot/");
  });

  test("success message: additionalContext only", () => {
    const p = make({ callbacks: [OK] }, { "t.ok": "1" });
    const r = call(p, "PostToolUse", patch("*** Add File: t.ok", "+1"));
    expect(r.json).toEqual({
      hookSpecificOutput: {
        hookEventName: "PostToolUse",
        additionalContext: "✓ 'types' passed on t.ok: types are fine",
      },
    });
  });

  test("resync: a formatter's rewrite as a diff; a moved file counts at its new name", () => {
    const p = make({ callbacks: [FORMAT] }, { "new.fmt": "moved\n" });
    const r = call(
      p,
      "PostToolUse",
      patch("*** Update File: old.fmt", "*** Move to: new.fmt", "@@", "-a", "+moved"),
    );
    expect(readFileSync(p.path("new.fmt"), "utf8")).toBe("MOVED\n");
    const ctx = (r.json as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
      .additionalContext;
    expect(ctx).toContain("new.fmt");
    expect(ctx).toContain("+MOVED");
  });

  test("a patch that did not apply (files not there) runs nothing", () => {
    const p = make({ callbacks: [LINT] });
    expect(call(p, "PostToolUse", patch("*** Add File: never.ts", "+BAD")).stdout).toBe("");
  });
});

describe("PostToolUse on the shell tool: what the command changed, then what waited", () => {
  test("a background result that waited reaches the model with the shell call's result", () => {
    const p = make({ callbacks: [OK] });
    const root = realpathSync(p.path("."));
    postNotice(root, "s1", { kind: "run-finished", text: "waited: 'lint' failed", failing: true });
    const r = p.hook({
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "true" },
    });
    expect(r.code).toBe(0);
    expect(r.json).toEqual({
      hookSpecificOutput: {
        hookEventName: "PostToolUse",
        additionalContext: expect.stringContaining("waited: 'lint' failed"),
      },
    });
  });
});
