/**
 * Sessions where the model hands work to a subagent, with an agent's real CLI against the
 * scripted model (shared by the agents' subagent tests): the parent's and the subagent's
 * conversations each follow their own script, told apart by the task the subagent is
 * given, which only the subagent's conversation holds as a user message.
 */
import { expect } from "bun:test";
import type { AgentProject } from "../agents/gemini/_agent-project.ts";
import { agentProject, LINT } from "../agents/gemini/_agent-project.ts";
import type { e2eSessions } from "./e2e-sessions.ts";
import { afterLastTurn, type RecordedRequest, type Step } from "./fake-openai.ts";

/** The subagent's prompt: its conversation is the one whose user messages hold it. */
export const SUBTASK = "SUBTASK-7f3: write src/a.ts as told";

type Item = Record<string, unknown>;

/** A user message's text, or a message another agent sent (Codex's `agent_message`). */
function userText(item: Item): string {
  if (item.role !== "user" && item.type !== "agent_message") return "";
  return typeof item.content === "string" ? item.content : JSON.stringify(item.content ?? "");
}

/** True for a request of the subagent's conversation. */
export function isSubagentRequest(body: Record<string, unknown> | null): boolean {
  const history = (body?.input ?? body?.messages ?? []) as Item[];
  return Array.isArray(history) && history.some((item) => userText(item).includes(SUBTASK));
}

type Sessions = ReturnType<typeof e2eSessions>;

export interface SubagentRun {
  readonly project: AgentProject;
  readonly code: number | null;
  readonly stderr: string;
  /** What each conversation was sent after each of its scripted turns (`[i]`: after turn i). */
  readonly sub: string[];
  readonly parent: string[];
  readonly requests: RecordedRequest[];
}

/**
 * One session: the parent's first turn is `delegate` (the agent's subagent tool with
 * SUBTASK), then `parentAfter`; the subagent follows `sub`. The project has the lint
 * (`BAD` in a .ts file fails) with `agent.maxStopBlocks` 2.
 */
export async function playSubagentSession(
  sessions: Sessions,
  agent: string,
  script: { delegate: Step; parentAfter: Step[][]; sub: (project: AgentProject) => Step[][] },
  install: string[],
): Promise<SubagentRun> {
  const project = agentProject(
    agent,
    { agent: { maxStopBlocks: 2 }, callbacks: [LINT] },
    { "src/.keep": "" },
  );
  const parentTurns = [[script.delegate], ...script.parentAfter];
  const subTurns = script.sub(project);
  const s = await sessions.start(
    project,
    (body, turn) => (isSubagentRequest(body) ? subTurns[turn] : parentTurns[turn]),
    install,
  );
  const run = await s.run("do the task");
  const turns = s.api.turns();
  const texts = (sub: boolean) =>
    turns.filter((t) => isSubagentRequest(t.body) === sub).map((t) => afterLastTurn(t as never));
  return {
    project,
    code: run.code,
    stderr: run.stderr,
    sub: texts(true),
    parent: texts(false),
    requests: turns,
  };
}

/** How the model writes a file, runs a shell command and ends its turn in this agent's tools. */
export interface SubagentTools<S> {
  readonly write: (absPath: string, content: string) => S;
  readonly shell: (command: string) => S;
  /** The subagent's last turn saying `text` (a text reply, or the agent's finishing tool). */
  readonly finish: (text: string) => S;
}

/** The parent's turns after it delegated: "done" three times (held, held, let through). */
export const PARENT_AFTER: { text: string }[][] = [
  [{ text: "parent done" }],
  [{ text: "parent done, really" }],
  [{ text: "parent giving up" }],
];

/**
 * The subagent writes src/a.ts through its edit tool and src/b.ts through its shell, both
 * failing the lint, then says it is done (three times: where its own stop is held, it
 * gives up at the limit).
 */
export function subagentWrites<S>(tools: SubagentTools<S>): (project: AgentProject) => S[][] {
  return (project) => [
    [tools.write(project.path("src/a.ts"), "export const a = BAD;\n")],
    [tools.shell("printf 'export const b = BAD;\\n' > src/b.ts")],
    [tools.finish("sub done")],
    [tools.finish("sub done, really")],
    [tools.finish("sub giving up")],
  ];
}

/**
 * What every agent's subagent session proves: the subagent's edit and its shell write are
 * checked and told in its own tool results, and the parent's stop is held with both
 * failures (`agent.maxStopBlocks` 2) until it gives up. `ownStop`: whether the subagent's
 * own stop is held too (then it gives up at its own limit first).
 */
export function expectSubagentChecked(
  r: Pick<SubagentRun, "code" | "sub" | "parent">,
  ownStop: boolean,
  /** The parent's turns between its delegation and its first "done" (waiting for it). */
  waits = 0,
): void {
  expect(r.code).toBe(0);
  const [, afterWrite = "", afterShell = "", afterDone = ""] = r.sub;
  expect(afterWrite).toContain("BAD in src/a.ts");
  expect(afterShell).toContain("files your command changed: src/b.ts");
  expect(afterShell).toContain("BAD in src/b.ts");
  if (ownStop) {
    expect(afterDone).toContain("cpilot: do not stop yet");
    expect(afterDone).toContain("BAD in src/a.ts");
    expect(r.sub).toHaveLength(5);
  } else {
    expect(r.sub).toHaveLength(3);
  }
  const [parentHeld = "", parentHeldAgain = ""] = r.parent.slice(2 + waits);
  expect(parentHeld).toContain("cpilot: do not stop yet");
  expect(parentHeld).toContain("'lint' failed on src/a.ts and src/b.ts");
  expect(parentHeldAgain).toContain("(reminder 2 of at most 2)");
  expect(r.parent).toHaveLength(4 + waits);
}
