/** The answer to a hook call whose input cannot be read: a deny in the agent's form, unless it is surely a post event. */
import { describe, expect, test } from "bun:test";
import { agentNamed } from "../../src/agents/all-agents.ts";
import type { Agent } from "../../src/agents/contract.ts";
import { sniffEvent, unreadableInputReply } from "../../src/hook/unreadable-input.ts";

const agent = (name: string): Agent => {
  const found = agentNamed(name);
  if (found === undefined) throw new Error(`no agent ${name}`);
  return found;
};

describe("sniffEvent", () => {
  test("finds the event at the start of a cut or malformed payload", () => {
    expect(
      sniffEvent('{"session_id":"s","hook_event_name" : "PreToolUse","tool_input":{"con'),
    ).toBe("PreToolUse");
    expect(sniffEvent("{oops")).toBeNull();
    expect(sniffEvent("")).toBeNull();
  });
});

describe("unreadableInputReply", () => {
  const problem = "Cannot read the hook input: stdin did not close within 10 s";
  test.each([
    ["claude", '{"hook_event_name":"PreToolUse"', "hookSpecificOutput"],
    ["codex", "", "hookSpecificOutput"],
    ["gemini", '{"hook_event_name":"BeforeTool"', "decision"],
    ["cursor", '{"hook_event_name":"preToolUse"', "permission"],
    ["opencode", '{"hook_event_name":"tool.execute.before"', "decision"],
  ])("%s: a pre-write (or unknown) event is denied in its own form", (name, text, key) => {
    const reply = unreadableInputReply(agent(name), text, problem);
    expect(JSON.stringify(reply.json)).toContain('"deny"');
    expect(Object.keys(reply.json ?? {})).toContain(key);
    expect(reply.stderr).toContain("stdin did not close");
  });

  test("a post event is left alone: nothing to deny", () => {
    expect(
      unreadableInputReply(agent("claude"), '{"hook_event_name":"PostToolUse"', problem).json,
    ).toBeNull();
    expect(
      unreadableInputReply(agent("cursor"), '{"hook_event_name":"afterFileEdit"', problem).json,
    ).toEqual({});
  });
});
