/**
 * What a subagent writes, with the real Claude Code CLI and `cpilot install claude --local`,
 * driven by the fake Messages API. A subagent's tool calls fire the parent's hooks with the
 * parent's session_id and the subagent's agent_id (measured with 2.1.332): its Write and its
 * shell edits are checked in its own tool results, and its stop (SubagentStop) is held while
 * the file fails, as the parent's would be.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { type ClaudeProject, claudeProjects, TODO_LINT } from "../../support/claude-project.ts";
import { type RecordedRequest, type Turn, textOf } from "../../support/fake-anthropic.ts";
import type { TempProject } from "../../support/temp-project.ts";

const TIMEOUT = 90_000;
const claude = claudeProjects();

/** The subagent's prompt carries this, which tells its requests from the parent's. */
const SUBTASK = "SUBTASK: write a.ts";

const say = (text: string): Turn => [{ type: "text", text }];
const bash = (command: string): Turn => [
  { type: "tool_use", name: "Bash", input: { command, description: "run it" } },
];
/** The parent hands the work to a subagent and waits for it (a background one fires the same hooks). */
const delegate: Turn = [
  {
    type: "tool_use",
    name: "Agent",
    input: {
      description: "write a.ts",
      prompt: SUBTASK,
      subagent_type: "general-purpose",
      run_in_background: false,
    },
  },
];

function isSubagent(req: RecordedRequest): boolean {
  const first = (req.body as { messages?: unknown[] }).messages?.[0];
  return JSON.stringify(first ?? "").includes(SUBTASK);
}

interface Session extends ClaudeProject {
  /** The requests of the subagent's conversation, in order. */
  sub(): RecordedRequest[];
  /** The requests of the parent's conversation, in order. */
  parent(): RecordedRequest[];
}

async function session(subScript: (project: TempProject) => Turn[]): Promise<Session> {
  const ctx = await claude.setup({ callbacks: [TODO_LINT] }, (project) => {
    const subTurns = subScript(project);
    return (req, index) => {
      if (isSubagent(req)) return subTurns[index] ?? say("sub: nothing left");
      return index === 0 ? delegate : say("parent done");
    };
  });
  await claude.run(ctx);
  const { api } = ctx;
  return {
    ...ctx,
    sub: () => api.turns().filter(isSubagent),
    parent: () => api.turns().filter((r) => !isSubagent(r)),
  };
}

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
