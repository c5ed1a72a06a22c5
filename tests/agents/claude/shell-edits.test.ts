/**
 * Files the agent writes through its Bash tool, with the real Claude Code CLI (2.1.330)
 * and `cpilot install claude --local`, driven by the fake Messages API: found by comparing
 * the project's files with the turn's start, checked like an Edit's, held at the stop.
 */
import { afterEach, expect, test } from "bun:test";
import { runClaude } from "../../support/claude-cli.ts";
import {
  type FakeAnthropic,
  startFakeAnthropic,
  type Turn,
  textOf,
} from "../../support/fake-anthropic.ts";
import { makeTempProject, type TempProject } from "../../support/temp-project.ts";
import { cpilot } from "./_helpers.ts";

const TIMEOUT = 90_000;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const bash = (command: string): Turn[number] => ({
  type: "tool_use",
  name: "Bash",
  input: { command, description: "run it" },
});
const say = (text: string): Turn => [{ type: "text", text }];

const lint = {
  name: "lint",
  description: "no TODO left in code",
  pattern: "*.ts",
  run: 'if grep -n TODO "$CP_CHANGED_FILE"; then echo "lint: TODO found" >&2; exit 1; fi',
  timeout: 20,
  per: "file",
};

async function setup(script: Turn[]): Promise<{ project: TempProject; api: FakeAnthropic }> {
  const project = await makeTempProject();
  const api = await startFakeAnthropic(script);
  cleanups.push(
    () => api.close(),
    () => project.remove(),
  );
  await project.write("callbacks.config.json", JSON.stringify({ callbacks: [lint] }, null, 2));
  const installed = cpilot(["install", "claude", "--local"], { cwd: project.dir });
  if (installed.code !== 0) throw new Error(`install failed: ${installed.stderr}`);
  return { project, api };
}

async function run({ project, api }: { project: TempProject; api: FakeAnthropic }): Promise<void> {
  const result = await runClaude({ cwd: project.dir, apiUrl: api.url, prompt: "do the task" });
  if (result.exitCode !== 0)
    throw new Error(`claude exited ${result.exitCode}\nstderr:\n${result.stderr}`);
  expect(api.escapes()).toEqual([]);
}

test(
  "a lint error written through Bash reaches the model in that tool's result and holds its stop",
  async () => {
    const ctx = await setup([
      [bash("printf 'export const a = 1; // TODO remove\\n' > a.ts")],
      say("done"),
      [bash("sed -i 's| // TODO remove||' a.ts")],
      say("fixed"),
    ]);
    // The person's own unfinished file, there before the turn: it stays theirs.
    await ctx.project.write("b.ts", "export const b = 2; // TODO mine\n");
    await run(ctx);
    const turns = ctx.api.turns();
    const afterBash = textOf(turns[1]!);
    expect(afterBash).toContain("PostToolUse:Bash hook blocking error");
    expect(afterBash).toContain("files your command changed: a.ts");
    expect(afterBash).toContain("✗ 'lint' failed on a.ts: exit 1 (failed)");
    expect(afterBash).not.toContain("b.ts");
    const atStop = textOf(turns[2]!);
    expect(atStop).toContain("Stop hook feedback");
    expect(atStop).toContain("'lint' failed on a.ts");
    // The fix through sed is checked too and passes: the next stop is let through.
    expect(textOf(turns[3]!)).not.toContain("failed on a.ts");
    expect(turns).toHaveLength(4);
  },
  TIMEOUT,
);

test(
  ".env written through Bash is reported as a protected file changed, and holds the stop until removed",
  async () => {
    const ctx = await setup([
      [bash("echo 'TOKEN=abc123' > .env")],
      say("done"),
      [bash("rm .env")],
      say("removed"),
    ]);
    await run(ctx);
    const turns = ctx.api.turns();
    const afterBash = textOf(turns[1]!);
    expect(afterBash).toContain("PostToolUse:Bash hook blocking error");
    expect(afterBash).toContain("a protected file was changed through the shell: .env");
    expect(afterBash).toContain("must be reverted: delete it");
    expect(afterBash).not.toContain("abc123"); // a secret's bytes are not repeated
    expect(textOf(turns[2]!)).toContain("Stop hook feedback");
    expect(textOf(turns[2]!)).toContain("protected file was changed through the shell: .env");
    expect(turns).toHaveLength(4);
  },
  TIMEOUT,
);

test(
  "a Bash command that writes 60 files names 50 of them to the model, the rest counted, all checked",
  async () => {
    const ctx = await setup([
      [
        bash(
          'mkdir gen && for i in $(seq -w 1 60); do echo "export const n$i = $i;" > gen/f$i.ts; done',
        ),
      ],
      say("done"),
    ]);
    await run(ctx);
    const afterBash = textOf(ctx.api.turns()[1]!);
    expect(afterBash).toContain("files your command changed: gen/f01.ts, gen/f02.ts");
    expect(afterBash).toContain("gen/f50.ts and 10 more (all checked)");
    expect(afterBash).not.toContain("gen/f51.ts");
  },
  TIMEOUT,
);
