/**
 * What a Gemini CLI subagent writes, with the real CLI and `cpilot install gemini
 * --trust-project` against the scripted model: the parent hands the work to the
 * `generalist` agent (its `invoke_agent` tool), whose tool calls go through the same
 * scheduler and fire BeforeTool/AfterTool: its edit and its shell write are checked in its
 * own results. It ends by calling `complete_task`, and fires no AfterAgent (only the main
 * loop does); the parent's AfterAgent is held with what it left failing.
 */
import { afterEach, test } from "bun:test";
import {
  expectSubagentChecked,
  PARENT_AFTER,
  SUBTASK,
  subagentWrites,
} from "../../support/subagent-session.ts";
import { type AgentProject, agentProject, cpilot, LINT } from "./_agent-project.ts";
import {
  type FakeGemini,
  type GenerateBody,
  lastUserText,
  type Part,
  startFakeGemini,
} from "./_fake-gemini.ts";
import { runGemini } from "./_gemini-cli.ts";

let live: { project?: AgentProject; api?: FakeGemini } = {};
afterEach(async () => {
  live.project?.remove();
  await live.api?.close();
  live = {};
});

/** The subagent's conversation is the one whose user turns hold its task. */
const isSubagent = (body: GenerateBody | null): boolean =>
  (body?.contents ?? []).some(
    (c) => c.role === "user" && JSON.stringify(c.parts).includes(SUBTASK),
  );

const call = (name: string, args: Record<string, unknown>): Part => ({
  functionCall: { name, args },
});

test("a subagent's edit and shell write are checked in its results; the parent's stop is held", async () => {
  const project = agentProject(
    "gemini",
    { agent: { maxStopBlocks: 2 }, callbacks: [LINT] },
    { "src/.keep": "" },
  );
  live.project = project;
  const sub = subagentWrites<Part>({
    write: (path, content) => call("write_file", { file_path: path, content }),
    shell: (command) => call("run_shell_command", { command }),
    finish: (text) => call("complete_task", { result: { response: text } }),
  })(project);
  const parent = [
    [call("invoke_agent", { agent_name: "generalist", prompt: SUBTASK })],
    ...PARENT_AFTER,
  ];
  const api = await startFakeGemini((body, turn) => (isSubagent(body) ? sub[turn] : parent[turn]));
  live.api = api;
  const installed = cpilot(["install", "gemini", "--trust-project"], { cwd: project.dir });
  if (installed.code !== 0) throw new Error(`install failed: ${installed.stderr}`);
  const run = await runGemini({
    cwd: project.dir,
    prompt: "do the task",
    apiUrl: api.url,
    timeoutMs: 180_000,
  });
  const texts = (subagent: boolean) =>
    api
      .turns()
      .filter((t) => isSubagent(t.body) === subagent)
      .map((t) => lastUserText(t));
  expectSubagentChecked({ code: run.code, sub: texts(true), parent: texts(false) }, false);
}, 300_000);
