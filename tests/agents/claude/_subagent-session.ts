/**
 * A real Claude Code session whose parent hands the work to one subagent (the Agent tool),
 * against the fake Messages API: the subagent's requests are told from the parent's by the
 * task in its first message, and each conversation follows its own script.
 */
import { expect } from "bun:test";
import { runClaude } from "../../support/claude-cli.ts";
import {
  type FakeAnthropic,
  type RecordedRequest,
  startFakeAnthropic,
  type Turn,
} from "../../support/fake-anthropic.ts";
import { makeTempProject, type TempProject } from "../../support/temp-project.ts";
import { cpilot } from "./_helpers.ts";

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
export const lint = {
  name: "lint",
  description: "no TODO left in code",
  pattern: "*.ts",
  run: 'if grep -n TODO "$CP_CHANGED_FILE"; then echo "lint: TODO found" >&2; exit 1; fi',
  timeout: 20,
  per: "file",
};

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
 * Run it: `subScript` is the subagent's turns, `parentAfter` the parent's after its
 * delegation (default: "parent done"), `config` the project's callbacks.config.json.
 */
export async function subagentSession(
  cleanups: (() => Promise<void>)[],
  subScript: (project: TempProject) => Turn[],
  options: { parentAfter?: Turn[]; config?: unknown } = {},
): Promise<SubagentSession> {
  const project = await makeTempProject();
  const subTurns = subScript(project);
  const parentTurns = [delegate, ...(options.parentAfter ?? [say("parent done")])];
  const api = await startFakeAnthropic((req, index) => {
    if (isSubagent(req)) return subTurns[index] ?? say("sub: nothing left");
    return parentTurns[index] ?? say("parent: nothing left");
  });
  cleanups.push(
    () => api.close(),
    () => project.remove(),
  );
  const config = options.config ?? { callbacks: [lint] };
  await project.write("callbacks.config.json", JSON.stringify(config, null, 2));
  const installed = cpilot(["install", "claude", "--local"], { cwd: project.dir });
  if (installed.code !== 0) throw new Error(`install failed: ${installed.stderr}`);
  const result = await runClaude({ cwd: project.dir, apiUrl: api.url, prompt: "do the task" });
  if (result.exitCode !== 0)
    throw new Error(`claude exited ${result.exitCode}\nstderr:\n${result.stderr}`);
  expect(api.escapes()).toEqual([]);
  return {
    project,
    api,
    sub: () => api.turns().filter(isSubagent),
    parent: () => api.turns().filter((r) => !isSubagent(r)),
  };
}
