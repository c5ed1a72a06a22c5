/**
 * A subagent's own limit on held stops, with the real Claude Code CLI and `cpilot install
 * claude --local` against the fake Messages API: SubagentStop carries the subagent's
 * `agent_id`, and its held stops are counted apart from the session's, so a subagent that
 * used up `agent.maxStopBlocks` leaves the parent's stop gate whole.
 */
import { expect, test } from "bun:test";
import { textOf } from "../../support/fake-anthropic.ts";
import { lint, say, subagentSessions } from "./_subagent-session.ts";

const TIMEOUT = 90_000;
const session = subagentSessions();

test(
  "a subagent that used up its held stops leaves the parent's stop gate whole",
  async () => {
    const s = await session(
      (project) => [
        [
          {
            type: "tool_use",
            name: "Write",
            input: { file_path: project.path("a.ts"), content: "export const a = 1; // TODO\n" },
          },
        ],
        say("sub done"),
        say("sub gives up"),
      ],
      {
        config: { agent: { maxStopBlocks: 1 }, callbacks: [lint] },
        parentAfter: [say("parent done"), say("parent done, really")],
      },
    );
    const sub = s.sub();
    // The subagent's stop is held once (its limit), then let through with the file failing.
    expect(textOf(sub[2]!)).toContain("SubagentStop hook");
    expect(textOf(sub[2]!)).toContain("(reminder 1 of at most 1)");
    expect(sub).toHaveLength(3);
    // The parent's own stop is still held once with the failure the subagent left.
    const parent = s.parent();
    expect(parent).toHaveLength(3);
    expect(textOf(parent[2]!)).toContain("Stop hook");
    expect(textOf(parent[2]!)).toContain("(reminder 1 of at most 1)");
    expect(textOf(parent[2]!)).toContain("'lint' failed on a.ts");
  },
  TIMEOUT,
);
