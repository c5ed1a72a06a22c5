/**
 * A real Claude Code session whose parent hands the work to one subagent (the Agent tool),
 * against the fake Messages API: the subagent's requests are told from the parent's by the
 * task in its first message, and each conversation follows its own script.
 */
import { claudeProjects, TODO_LINT } from "../../support/claude-project.ts";
import type { FakeAnthropic, RecordedRequest, Turn } from "../../support/fake-anthropic.ts";
import type { TempProject } from "../../support/temp-project.ts";

/** The subagent's prompt carries this, which tells its requests from the parent's. */
export const SUBTASK = "SUBTASK: write a.ts";

export const say = (text: string): Turn => [{ type: "text", text }];
export const bash = (command: string): Turn => [
  { type: "tool_use", name: "Bash", input: { command, description: "run it" } },
];
/** The parent hands the work to a subagent and waits for it (a background one fires the same hooks). */
export const delegate: Turn = [
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

/** A blocking check: fails on a .ts file holding TODO. */
export const lint = TODO_LINT;

function isSubagent(req: RecordedRequest): boolean {
  const first = (req.body as { messages?: unknown[] }).messages?.[0];
  return JSON.stringify(first ?? "").includes(SUBTASK);
}

export interface SubagentSession {
  project: TempProject;
  api: FakeAnthropic;
  /** The requests of the subagent's conversation, in order. */
  sub(): RecordedRequest[];
  /** The requests of the parent's conversation, in order. */
  parent(): RecordedRequest[];
}

/**
 * Call once at the top of a test file (it removes what each test made after it). Its
 * `session` runs one: `subScript` is the subagent's turns, `parentAfter` the parent's after
 * its delegation (default: "parent done"), `config` the project's callbacks.config.json.
 */
export function subagentSessions() {
  const { setup, run } = claudeProjects();
  return async function session(
    subScript: (project: TempProject) => Turn[],
    options: { parentAfter?: Turn[]; config?: unknown } = {},
  ): Promise<SubagentSession> {
    const parentTurns = [delegate, ...(options.parentAfter ?? [say("parent done")])];
    const made = await setup(options.config ?? { callbacks: [lint] }, (project) => {
      const subTurns = subScript(project);
      return (req, index) =>
        isSubagent(req)
          ? (subTurns[index] ?? say("sub: nothing left"))
          : (parentTurns[index] ?? say("parent: nothing left"));
    });
    await run(made);
    const { project, api } = made;
    return {
      project,
      api,
      sub: () => api.turns().filter(isSubagent),
      parent: () => api.turns().filter((r) => !isSubagent(r)),
    };
  };
}
