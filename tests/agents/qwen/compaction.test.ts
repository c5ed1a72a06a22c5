/**
 * The callbacks table after a compaction, with the real Qwen Code 0.24.4 and `cpilot install
 * qwen` against the scripted model: the fake reports a nearly full context window after the
 * first tool call (usage `prompt_tokens` past the auto-compaction threshold of the window set
 * in the settings), so Qwen compacts its history before the next request (its summary request
 * goes to the fake). Qwen keeps a SessionStart hook's context in its system prompt, which a
 * compaction does not summarize away, so the table is still told in the request after it,
 * whose history no longer holds the prompt.
 */
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2eSessions } from "../../support/e2e-sessions.ts";
import type { RecordedRequest } from "../../support/fake-openai.ts";
import { agentProject, LINT } from "../gemini/_agent-project.ts";
import { qwenCli } from "./_qwen-cli.ts";

/** The context window Qwen is told its model has; it compacts past about 167,000 tokens of it. */
const WINDOW = 200_000;
const FULL = { prompt_tokens: 170_000, completion_tokens: 50, total_tokens: 170_050 };

const sessions = e2eSessions({
  ...qwenCli,
  home: (apiUrl) => {
    const home = qwenCli.home(apiUrl);
    const path = join(home, ".qwen", "settings.json");
    const settings = JSON.parse(readFileSync(path, "utf8"));
    writeFileSync(
      path,
      JSON.stringify({ ...settings, model: { generationConfig: { contextWindowSize: WINDOW } } }),
    );
    return home;
  },
});

const TABLE = "cpilot runs these checks when you edit matching files";
const PROMPT = "do the task";

type Message = { role: string; content: unknown };
const messages = (r: RecordedRequest) => (r.body?.messages ?? []) as Message[];
const text = (value: unknown) => JSON.stringify(value ?? "");
/** Qwen's request for a summary of the history: its last message asks for a state snapshot. */
const asksSummary = (r: RecordedRequest) => text(messages(r).at(-1)).includes("<state_snapshot>");
/** Whether the request's system prompt tells the table (a boolean: the prompt is long). */
const systemTellsTable = (r: RecordedRequest) =>
  text(messages(r).find((m) => m.role === "system")?.content).includes(TABLE);

test("the callbacks table is still told after Qwen compacts its history", async () => {
  const project = agentProject("qwen", { callbacks: [LINT] }, { "src/.keep": "" });
  const s = await sessions.start(
    project,
    (body, turn) => {
      if (asksSummary({ method: "POST", path: "", kind: "turn", body }))
        return [{ text: "<state_snapshot>the user asked for a task; ls ran</state_snapshot>" }];
      return turn === 0
        ? [{ tool: "run_shell_command", args: { command: "ls" } }]
        : [{ text: "done" }];
    },
    [],
    (request, turn) => (turn === 0 || asksSummary(request) ? FULL : undefined),
  );
  const run = await s.run(PROMPT);
  expect(run.code).toBe(0);
  expect(s.api.escapes()).toEqual([]);
  const requests = s.api.requests.filter((r) => r.method === "POST");
  const first = requests[0]!;
  expect(text(messages(first))).toContain(PROMPT);
  expect(systemTellsTable(first)).toBe(true);
  // Qwen asked for a summary after the first turn, then went on with the compacted history
  const summary = requests.findIndex(asksSummary);
  expect(summary).toBeGreaterThan(0);
  const after = requests.slice(summary + 1).filter((r) => !asksSummary(r));
  expect(after).toHaveLength(1);
  const next = after[0]!;
  expect(text(messages(next))).not.toContain(PROMPT);
  expect(text(messages(next))).toContain("ls ran");
  // the table, in the system prompt the compaction left whole
  expect(systemTellsTable(next)).toBe(true);
}, 300_000);
