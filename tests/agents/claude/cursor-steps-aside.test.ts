/**
 * Cursor runs the hooks of Claude Code's `.claude/settings*.json` as well as its own
 * `.cursor/hooks.json`. With `install claude` and `install cursor` both done, one Cursor
 * edit reaches cpilot through both: `cpilot hook claude` steps aside for Cursor's calls
 * where cpilot's Cursor hooks are installed, so each edit is gated and checked once, by
 * `cpilot hook cursor`; without them it answers, so Cursor is never left unchecked. Payloads follow Cursor's
 * documented schema (no Cursor CLI can be installed here), under Cursor's event names and
 * under Claude Code's, whichever Cursor hands a Claude hook.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { cpilot } from "../../helpers/binary.ts";
import { makeProject, type Project } from "./_helpers.ts";

let project: Project | undefined;
afterEach(() => project?.remove());

/** A callback that counts its runs in runs.log, and fails. */
const config = {
  callbacks: [
    {
      name: "lint",
      pattern: "*.ts",
      run: 'echo run >> runs.log; echo "lint: bad" >&2; exit 1',
      per: "file",
      timeout: 10,
    },
  ],
};

function cursorPayload(dir: string, extra: Record<string, unknown>): Record<string, unknown> {
  return {
    conversation_id: "conv-1",
    generation_id: "gen-1",
    model: "gpt-5",
    cursor_version: "3.4.1",
    workspace_roots: [dir],
    user_email: null,
    transcript_path: null,
    ...extra,
  };
}

const runs = (p: Project): number =>
  existsSync(p.path("runs.log"))
    ? readFileSync(p.path("runs.log"), "utf8").split("\n").length - 1
    : 0;

for (const names of [
  { pre: "preToolUse", post: "postToolUse", stop: "stop" },
  { pre: "PreToolUse", post: "PostToolUse", stop: "Stop" },
]) {
  test(`with cpilot's Cursor hooks installed, a Cursor call to the Claude hook (${names.pre}, ${names.post}, ${names.stop}) is not answered and runs nothing`, () => {
    const p = makeProject(config, { "a.ts": "x\n" });
    project = p;
    expect(cpilot(["install", "cursor"], { cwd: p.dir }).code).toBe(0);
    const envelope = (extra: Record<string, unknown>) => cursorPayload(p.dir, extra);
    // The built-in protection would deny this write if the Claude hook answered it.
    const gate = p.hook(
      envelope({
        hook_event_name: names.pre,
        tool_name: "Write",
        tool_input: { file_path: p.path(".env"), contents: "TOKEN=1" },
      }),
    );
    expect(gate.code).toBe(0);
    expect(gate.stdout).toBe("");
    const after = p.hook(
      envelope({
        hook_event_name: names.post,
        tool_name: "Write",
        tool_input: { file_path: p.path("a.ts"), contents: "x\n" },
        tool_output: "ok",
      }),
    );
    expect(after.stdout).toBe("");
    const stop = p.hook(
      envelope({ hook_event_name: names.stop, status: "completed", loop_count: 0 }),
    );
    expect(stop.stdout).toBe("");
    expect(runs(p)).toBe(0);
  });
}

test("the same Cursor edit through `hook cursor` is gated and checked, once", () => {
  const p = makeProject(config, { "a.ts": "x\n" });
  project = p;
  const hook = (payload: Record<string, unknown>) =>
    cpilot(["hook", "cursor"], {
      cwd: p.dir,
      input: JSON.stringify(cursorPayload(p.dir, payload)),
    });
  const gate = hook({
    hook_event_name: "preToolUse",
    tool_name: "Write",
    tool_input: { file_path: p.path(".env"), contents: "TOKEN=1" },
  });
  expect(JSON.parse(gate.stdout)).toMatchObject({ permission: "deny" });
  hook({
    hook_event_name: "postToolUse",
    tool_name: "Write",
    tool_input: { file_path: p.path("a.ts"), contents: "x\n" },
    tool_output: "ok",
  });
  expect(runs(p)).toBe(1);
});

test("without cpilot's Cursor hooks, the Claude hook answers Cursor's call: cpilot is not left out", () => {
  const p = makeProject(config, { "a.ts": "x\n" });
  project = p;
  const gate = p.hook(
    cursorPayload(p.dir, {
      hook_event_name: "PreToolUse",
      tool_name: "Write",
      tool_input: { file_path: p.path(".env"), contents: "TOKEN=1" },
    }),
  );
  expect(JSON.stringify(gate.json)).toContain('"permissionDecision":"deny"');
});

test("Claude Code's own calls are still answered", () => {
  const p = makeProject(config, { "a.ts": "x\n" });
  project = p;
  const gate = p.hook({
    hook_event_name: "PreToolUse",
    tool_name: "Write",
    tool_input: { file_path: p.path(".env"), content: "TOKEN=1" },
  });
  expect(JSON.stringify(gate.json)).toContain('"permissionDecision":"deny"');
});
