/**
 * Proves the harness: the real Claude Code CLI, driven by the fake Messages API, runs
 * scripted tools and shows (or hides) hook output to the model exactly as documented.
 */
import { afterAll, afterEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { isGone } from "./_leftovers.ts";
import {
  type ClaudeRun,
  ClaudeTimeoutError,
  type RunClaudeOptions,
  runClaude,
} from "./claude-cli.ts";
import {
  conversationText,
  type FakeAnthropic,
  startFakeAnthropic,
  type Turn,
  textOf,
  toolResults,
} from "./fake-anthropic.ts";
import { makeTempProject, type TempProject } from "./temp-project.ts";

const TIMEOUT = 30_000;
const timings: string[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
afterAll(() => {
  console.log(`claude runs: ${timings.join(", ")}`);
});

/** A temp git project and a fake API whose script may use the project's paths. */
async function setup(
  script: (project: TempProject) => Turn[],
): Promise<{ project: TempProject; api: FakeAnthropic }> {
  const project = await makeTempProject();
  const api = await startFakeAnthropic(script(project));
  cleanups.push(
    () => api.close(),
    () => project.remove(),
  );
  return { project, api };
}

/**
 * Runs the CLI in the project against the fake and fails on a non-zero exit. Set
 * CPILOT_E2E_DUMP=<dir> to write every recorded request to `<dir>/<name>.json`.
 */
async function run(
  name: string,
  { project, api }: { project: TempProject; api: FakeAnthropic },
  settings: RunClaudeOptions["settings"] = {},
): Promise<ClaudeRun> {
  const result = await runClaude({
    cwd: project.dir,
    apiUrl: api.url,
    prompt: "do the task",
    settings,
  });
  timings.push(`${name} ${result.durationMs} ms`);
  const dump = process.env.CPILOT_E2E_DUMP;
  if (dump) {
    await mkdir(dump, { recursive: true });
    await writeFile(join(dump, `${name}.json`), JSON.stringify(api.requests, null, 1));
  }
  if (result.exitCode !== 0) {
    throw new Error(`claude exited ${result.exitCode}\nstderr:\n${result.stderr}`);
  }
  expect(api.escapes()).toEqual([]);
  return result;
}

function finalResult(result: ClaudeRun): Record<string, unknown> | undefined {
  return result.events.findLast((event) => event.type === "result");
}

function postToolUse(command: string) {
  return {
    hooks: { PostToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command }] }] },
  };
}

const write = (file_path: string, content: string): Turn[number] => ({
  type: "tool_use",
  name: "Write",
  input: { file_path, content },
});
const done: Turn = [{ type: "text", text: "done" }];

test(
  "a scripted Write creates the file on disk",
  async () => {
    const { project, api } = await setup((p) => [[write(p.path("hello.txt"), "hello\n")], done]);

    const result = await run("write", { project, api });

    expect(await readFile(project.path("hello.txt"), "utf8")).toBe("hello\n");
    expect(api.turns().map((r) => r.turn)).toEqual([0, 1]);
    expect(toolResults(api.turns()[1]!)).toHaveLength(1);
    expect(finalResult(result)).toMatchObject({ subtype: "success", result: "done" });
  },
  TIMEOUT,
);

test(
  "PostToolUse additionalContext reaches the model in the next request",
  async () => {
    const { project, api } = await setup((p) => [[write(p.path("a.ts"), "export {};\n")], done]);
    const hook = await project.hook(
      "post.sh",
      `cat > "${project.path("post-stdin.json")}"
echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"MARKER-123"}}'`,
    );

    await run("post-context", { project, api }, postToolUse(hook));

    const [first, second] = api.turns();
    expect(conversationText(first!)).not.toContain("MARKER-123");
    expect(textOf(second!)).toContain("MARKER-123");
    const stdin = JSON.parse(await readFile(project.path("post-stdin.json"), "utf8"));
    expect(stdin).toMatchObject({
      hook_event_name: "PostToolUse",
      tool_name: "Write",
      tool_input: { file_path: project.path("a.ts") },
      cwd: project.dir,
    });
  },
  TIMEOUT,
);

test(
  "a hook exiting 2 shows its stderr to the model",
  async () => {
    const { project, api } = await setup((p) => [[write(p.path("a.ts"), "export {};\n")], done]);
    const hook = await project.hook("post.sh", "cat >/dev/null\necho 'EXIT2-STDERR' >&2\nexit 2");

    await run("post-exit2", { project, api }, postToolUse(hook));

    expect(textOf(api.turns()[1]!)).toContain("EXIT2-STDERR");
  },
  TIMEOUT,
);

test(
  "a hook exiting 1 runs but its output never reaches the model",
  async () => {
    const { project, api } = await setup((p) => [[write(p.path("a.ts"), "export {};\n")], done]);
    const ran = project.path("exit1-ran");
    const hook = await project.hook(
      "post.sh",
      `cat >/dev/null\ntouch "${ran}"\necho 'EXIT1-STDOUT'\necho 'EXIT1-STDERR' >&2\nexit 1`,
    );

    await run("post-exit1", { project, api }, postToolUse(hook));

    expect(existsSync(ran)).toBe(true);
    const after = api.turns()[1]!;
    expect(toolResults(after)).toHaveLength(1);
    for (const req of api.requests) {
      expect(JSON.stringify(req.body ?? "")).not.toContain("EXIT1-");
    }
  },
  TIMEOUT,
);

test(
  "a parallel batch of two Writes, then PostToolBatch additionalContext reaches the model",
  async () => {
    const { project, api } = await setup((p) => [
      [
        write(p.path("a.ts"), "export const a = 1;\n"),
        write(p.path("b.ts"), "export const b = 2;\n"),
      ],
      done,
    ]);
    const stdinFile = project.path("batch-stdin.json");
    const hook = await project.hook(
      "batch.sh",
      `cat > "${stdinFile}"
echo '{"hookSpecificOutput":{"hookEventName":"PostToolBatch","additionalContext":"BATCH-456"}}'`,
    );
    const a = project.path("a.ts");
    const b = project.path("b.ts");

    await run(
      "batch",
      { project, api },
      { hooks: { PostToolBatch: [{ hooks: [{ type: "command", command: hook }] }] } },
    );

    expect(await readFile(a, "utf8")).toBe("export const a = 1;\n");
    expect(await readFile(b, "utf8")).toBe("export const b = 2;\n");
    const after = api.turns()[1]!;
    expect(toolResults(after)).toHaveLength(2);
    expect(textOf(after)).toContain("BATCH-456");
    const stdin = JSON.parse(await readFile(stdinFile, "utf8"));
    expect(stdin.hook_event_name).toBe("PostToolBatch");
    expect(
      stdin.tool_calls.map((c: { tool_input: { file_path: string } }) => c.tool_input.file_path),
    ).toEqual([a, b]);
  },
  TIMEOUT,
);

test(
  "an Edit after a Read of an existing file lands on disk",
  async () => {
    const { project, api } = await setup((p) => [
      [{ type: "tool_use", name: "Read", input: { file_path: p.path("calc.ts") } }],
      [
        {
          type: "tool_use",
          name: "Edit",
          input: {
            file_path: p.path("calc.ts"),
            old_string: "answer = 41",
            new_string: "answer = 42",
          },
        },
      ],
      done,
    ]);
    const file = await project.write("calc.ts", "export const answer = 41;\n");
    project.commit("init");

    await run("read-edit", { project, api });

    expect(await readFile(file, "utf8")).toBe("export const answer = 42;\n");
    const [, afterRead, afterEdit] = api.turns();
    expect(textOf(afterRead!)).toContain("export const answer = 41;");
    expect(toolResults(afterEdit!)[0]).not.toMatchObject({ is_error: true });
  },
  TIMEOUT,
);

test(
  "a Stop hook that blocks once makes the agent go on with the reason",
  async () => {
    const { project, api } = await setup(() => [done, [{ type: "text", text: "fixed" }]]);
    const counter = project.path("stop-count");
    const hook = await project.hook(
      "stop.sh",
      `cat >/dev/null
n=$(cat "${counter}" 2>/dev/null || echo 0); echo $((n + 1)) > "${counter}"
if [ "$n" = 0 ]; then echo '{"decision":"block","reason":"FIX-IT"}'; fi`,
    );

    const result = await run(
      "stop-block",
      { project, api },
      { hooks: { Stop: [{ hooks: [{ type: "command", command: hook }] }] } },
    );

    expect(api.turns()).toHaveLength(2);
    expect(conversationText(api.turns()[0]!)).not.toContain("FIX-IT");
    expect(textOf(api.turns()[1]!)).toContain("FIX-IT");
    expect((await readFile(counter, "utf8")).trim()).toBe("2");
    expect(finalResult(result)).toMatchObject({ result: "fixed" });
  },
  TIMEOUT,
);

test(
  "a run over its time limit fails with stderr, and the hook's children die with it",
  async () => {
    const { project, api } = await setup((p) => [[write(p.path("a.ts"), "export {};\n")], done]);
    const hook = await project.hook(
      "slow.sh",
      `cat >/dev/null
sleep 300 & echo $! > "${project.path("child.pid")}"
echo $$ > "${project.path("hook.pid")}"
sleep 300`,
    );

    const started = performance.now();
    const error = await runClaude({
      cwd: project.dir,
      apiUrl: api.url,
      prompt: "do the task",
      settings: postToolUse(hook),
      // long enough for a busy machine to reach the hook, which then never ends by itself
      timeoutMs: 30_000,
    }).catch((e: unknown) => e);
    timings.push(`timeout ${Math.round(performance.now() - started)} ms`);

    expect(error).toBeInstanceOf(ClaudeTimeoutError);
    expect(String(error)).toContain("timed out after 30 s");
    for (const name of ["hook.pid", "child.pid"]) {
      const pid = Number(await readFile(project.path(name), "utf8"));
      expect({ name, gone: isGone(pid) }).toEqual({ name, gone: true });
    }
  },
  TIMEOUT * 2,
);

test(
  "a process a hook leaves running is counted and killed when the CLI exits",
  async () => {
    const { project, api } = await setup((p) => [[write(p.path("a.ts"), "export {};\n")], done]);
    const pidFile = project.path("daemon.pid");
    const hook = await project.hook(
      "daemon.sh",
      `cat >/dev/null\nnohup sleep 300 >/dev/null 2>&1 &\necho $! > "${pidFile}"`,
    );

    const result = await run("leftover", { project, api }, postToolUse(hook));

    expect(result.leftovers).toBe(1);
    expect(isGone(Number(await readFile(pidFile, "utf8")))).toBe(true);
  },
  TIMEOUT,
);

test(
  "traffic for other hosts is caught by the proxy tripwire, not sent",
  async () => {
    const { project, api } = await setup(() => [done]);

    // With non-essential traffic allowed, the CLI calls api.anthropic.com itself.
    const result = await runClaude({
      cwd: project.dir,
      apiUrl: api.url,
      prompt: "do the task",
      env: { CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "" },
    });
    timings.push(`tripwire ${result.durationMs} ms`);

    expect(result.exitCode).toBe(0);
    expect(api.turns()).toHaveLength(1);
    expect(api.escapes().length).toBeGreaterThan(0);
    expect(api.escapes().map((r) => r.method)).toContain("CONNECT");
  },
  TIMEOUT,
);
