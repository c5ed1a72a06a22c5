/**
 * After a compaction the model's history is a summary: the callbacks table it was shown at
 * the session's start is gone. With the real Claude Code CLI (2.1.332) and `cpilot install
 * claude --local`, an automatic compaction (forced by a small context window) fires
 * SessionStart with `source: "compact"`, and cpilot tells the table again there.
 */
import { afterEach, expect, test } from "bun:test";
import { runClaude } from "../../support/claude-cli.ts";
import {
  type MessagesBody,
  type RecordedRequest,
  startFakeAnthropic,
  type Turn,
  textOf,
} from "../../support/fake-anthropic.ts";
import { makeTempProject } from "../../support/temp-project.ts";
import { cpilot } from "./_helpers.ts";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const PANEL = "cpilot runs these checks when you edit matching files";
const SUMMARY_TEXT = "SUMMARY: two notes were read";
const SUMMARY = `<analysis>-</analysis><summary>${SUMMARY_TEXT}</summary>`;

const lint = { name: "lint", pattern: "*.ts", run: "true", timeout: 20, per: "file" };

/** Claude Code's compaction request ends with this instruction to the model. */
function isCompaction(req: RecordedRequest): boolean {
  const last = (req.body as MessagesBody).messages?.at(-1);
  return JSON.stringify(last ?? "").includes("<summary> block");
}

test("the callbacks table is told again after a compaction", async () => {
  const project = await makeTempProject();
  // Two reads of ~60 KB each fill a 30,000-token window past its threshold.
  await project.write("one.txt", "alpha ".repeat(10_000));
  await project.write("two.txt", "omega ".repeat(10_000));
  const read = (name: string): Turn => [
    { type: "tool_use", name: "Read", input: { file_path: project.path(name) } },
  ];
  let step = 0;
  const api = await startFakeAnthropic((req) => {
    if (isCompaction(req)) return [{ type: "text", text: SUMMARY }];
    step += 1;
    if (step === 1) return read("one.txt");
    if (step === 2) return read("two.txt");
    return [{ type: "text", text: "done" }];
  });
  cleanups.push(
    () => api.close(),
    () => project.remove(),
  );
  await project.write("callbacks.config.json", JSON.stringify({ callbacks: [lint] }));
  const installed = cpilot(["install", "claude", "--local"], { cwd: project.dir });
  if (installed.code !== 0) throw new Error(`install failed: ${installed.stderr}`);
  const run = await runClaude({
    cwd: project.dir,
    apiUrl: api.url,
    prompt: "read the notes",
    env: { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "30000", CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "20" },
  });
  expect(run.exitCode).toBe(0);
  expect(api.escapes()).toEqual([]);
  const turns = api.turns();
  expect(textOf(turns[0]!)).toContain(PANEL);
  const compacted = turns.findIndex(isCompaction);
  expect(compacted).toBeGreaterThan(0);
  // The first request of the compacted history holds the summary and the table again.
  const after = turns
    .slice(compacted + 1)
    .find((r) => JSON.stringify(r.body).includes(SUMMARY_TEXT));
  expect(after).toBeDefined();
  const messages = (after?.body as MessagesBody | undefined)?.messages;
  expect(JSON.stringify(messages ?? []).includes(PANEL)).toBe(true);
}, 90_000);
