/**
 * A Codex hook call whose input carries the command or patch in more than one field (a
 * harmless `command` beside a patch in `cmd` or `input`): cpilot read the first field it
 * knew and allowed the call, though the agent may run the other. Two fields that disagree
 * are a call cpilot cannot read as the agent does, and are refused; one field, or the same
 * text twice, is read as before.
 */
import { describe, expect, test } from "bun:test";
import { attackProject, verdict } from "./_gate-attack.ts";

const P = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch", ""].join("\n");
const heredoc = (body: string) => `apply_patch <<'EOF'\n${body}EOF\n`;
const HOOK = P("*** Add File: .git/hooks/pre-commit", "+#!/bin/sh");
const OK = P("*** Add File: ok.txt", "+ok");

describe("a Codex call with the patch in a second field", () => {
  test("is refused; one field or the same text twice is read as before", async () => {
    const p = attackProject({
      "callbacks.config.json": JSON.stringify({ callbacks: [] }),
    });
    const call = (tool: string, input: unknown) => ({
      session_id: "attack",
      cwd: p.dir,
      hook_event_name: "PreToolUse",
      tool_name: tool,
      tool_input: input,
    });
    const cases: [string, unknown, "allow" | "deny"][] = [
      [
        "shell: ls in command, patch in cmd",
        call("Bash", { command: "ls", cmd: heredoc(HOOK) }),
        "deny",
      ],
      [
        "shell: ls in command, patch in input",
        call("Bash", { command: "ls", input: heredoc(HOOK) }),
        "deny",
      ],
      [
        "shell: argv in command, patch in cmd",
        call("Bash", { command: ["ls"], cmd: heredoc(HOOK) }),
        "deny",
      ],
      [
        "tool: plain patch in command, hook in input",
        call("apply_patch", { command: OK, input: HOOK }),
        "deny",
      ],
      [
        "tool: plain patch in command, hook in patch",
        call("apply_patch", { command: OK, patch: HOOK }),
        "deny",
      ],
      ["shell: the patch alone in cmd", call("Bash", { cmd: heredoc(OK) }), "allow"],
      [
        "shell: the same patch in command and cmd",
        call("Bash", { command: heredoc(OK), cmd: heredoc(OK) }),
        "allow",
      ],
      [
        "shell: two commands, neither a patch",
        call("Bash", { command: "ls", cmd: "pwd" }),
        "allow",
      ],
      ["tool: the patch alone", call("apply_patch", { command: OK }), "allow"],
    ];
    for (const [name, payload, expected] of cases) {
      const r = await p.hook("codex", payload);
      expect({ name, verdict: verdict("codex", r) }).toEqual({ name, verdict: expected });
    }
  }, 120_000);
});
