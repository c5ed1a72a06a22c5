/**
 * What a subagent writes, with the real Claude Code CLI and `cpilot install claude --local`,
 * driven by the fake Messages API. A subagent's tool calls fire the parent's hooks with the
 * parent's session_id and the subagent's agent_id (measured with 2.1.332): its Write and its
 * shell edits are checked in its own tool results, and its stop (SubagentStop) is held while
 * the file fails, as the parent's would be.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { type Turn, textOf } from "../../support/fake-anthropic.ts";
import type { TempProject } from "../../support/temp-project.ts";
import { bash, type SubagentSession, say, subagentSessions } from "./_subagent-session.ts";

const TIMEOUT = 90_000;
const sessions = subagentSessions();

const session = (subScript: (project: TempProject) => Turn[]): Promise<SubagentSession> =>
  sessions(subScript);

test(
  "a lint error a subagent writes reaches the subagent and holds its stop until fixed",
  async () => {
    const s = await session((project) => [
      [
        {
          type: "tool_use",
          name: "Write",
          input: { file_path: project.path("a.ts"), content: "export const a = 1; // TODO\n" },
        },
      ],
      say("sub done"),
      [
        {
          type: "tool_use",
          name: "Write",
          input: { file_path: project.path("a.ts"), content: "export const a = 1;\n" },
        },
      ],
      say("sub fixed"),
    ]);
    const sub = s.sub();
    expect(textOf(sub[1]!)).toContain("PostToolUse:Write hook blocking error");
    expect(textOf(sub[1]!)).toContain("'lint' failed on a.ts");
    // The subagent's stop is held with the failure, so it goes on and fixes the file.
    expect(textOf(sub[2]!)).toContain("SubagentStop hook");
    expect(textOf(sub[2]!)).toContain("'lint' failed on a.ts");
    expect(sub).toHaveLength(4);
    // Fixed: the parent's stop is let through at once.
    expect(s.parent()).toHaveLength(2);
    expect(readFileSync(s.project.path("a.ts"), "utf8")).toBe("export const a = 1;\n");
  },
  TIMEOUT,
);

test(
  "a lint error a subagent writes through its shell is found, told to it, and holds its stop",
  async () => {
    const s = await session(() => [
      bash("printf 'export const b = 1; // TODO\\n' > b.ts"),
      say("sub done"),
      bash("sed -i 's| // TODO||' b.ts"),
      say("sub fixed"),
    ]);
    const sub = s.sub();
    expect(textOf(sub[1]!)).toContain("PostToolUse:Bash hook blocking error");
    expect(textOf(sub[1]!)).toContain("files your command changed: b.ts");
    expect(textOf(sub[1]!)).toContain("'lint' failed on b.ts");
    expect(textOf(sub[2]!)).toContain("SubagentStop hook");
    expect(textOf(sub[2]!)).toContain("'lint' failed on b.ts");
    expect(sub).toHaveLength(4);
    expect(s.parent()).toHaveLength(2);
  },
  TIMEOUT,
);
