/**
 * A teammate pulls the agents' shared hook settings (they name `cpilot`) on a machine where
 * cpilot is not installed, or where it starts and crashes: the write gate must still refuse.
 * Each real agent CLI, against its scripted fake model, is asked to write `.env` with a PATH
 * that holds no cpilot (or a cpilot that dies); the file must not appear.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codexCli } from "../agents/codex/_codex-cli.ts";
import { copilotCli } from "../agents/copilot/_copilot-cli.ts";
import { type AgentProject, agentProject, cpilot } from "../agents/gemini/_agent-project.ts";
import { startFakeGemini } from "../agents/gemini/_fake-gemini.ts";
import { runGemini } from "../agents/gemini/_gemini-cli.ts";
import { opencodeCli } from "../agents/opencode/_opencode-cli.ts";
import { qwenCli } from "../agents/qwen/_qwen-cli.ts";
import { pathWithCpilot } from "../helpers/binary.ts";
import { tempDir } from "../helpers/tmp.ts";
import type { AgentLauncher } from "../support/agent-cli.ts";
import { runClaude } from "../support/claude-cli.ts";
import { startFakeAnthropic, textOf } from "../support/fake-anthropic.ts";
import { afterLastTurn, type Step, startFakeOpenAI } from "../support/fake-openai.ts";

const CONFIG = { callbacks: [] };
/** This machine's PATH has no cpilot (the tests put the built one on PATH themselves). */
const NO_CPILOT = process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin";

/** A PATH whose `cpilot` starts and dies: `exit 1`, or killed by a signal. */
function crashingPath(how: "exit 1" | "kill -SEGV $$"): string {
  const dir = tempDir("cpilot-crash-");
  writeFileSync(join(dir, "cpilot"), `#!/bin/sh\n${how}\n`, { mode: 0o755 });
  return `${dir}:${NO_CPILOT}`;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

test("this machine's PATH holds no cpilot", () => {
  for (const dir of NO_CPILOT.split(":")) expect(existsSync(join(dir, "cpilot"))).toBe(false);
});

interface Launched {
  readonly launcher: AgentLauncher;
  readonly install: string[];
  readonly write: (path: string) => Step;
}

const AGENTS: Record<string, Launched> = {
  codex: {
    launcher: codexCli,
    install: ["--trust-project"],
    write: (path) => ({
      customTool: "apply_patch",
      input: `*** Begin Patch\n*** Add File: ${path}\n+SECRET=1\n*** End Patch\n`,
    }),
  },
  qwen: {
    launcher: qwenCli,
    install: [],
    write: (path) => ({ tool: "write_file", args: { file_path: path, content: "SECRET=1\n" } }),
  },
  copilot: {
    launcher: copilotCli,
    install: ["--trust-project"],
    write: (path) => ({ tool: "create", args: { path, file_text: "SECRET=1\n" } }),
  },
  opencode: {
    launcher: opencodeCli,
    install: [],
    write: (path) => ({ tool: "write", args: { filePath: path, content: "SECRET=1\n" } }),
  },
};

/** Install with cpilot on PATH (the shared file names `cpilot`), then run the agent with `path`. */
async function session(name: string, agent: Launched, path: string) {
  const project = agentProject(name, CONFIG);
  cleanups.push(() => project.remove());
  const script: Step[][] = [[agent.write(project.path(".env"))], [{ text: "done" }]];
  const api = await startFakeOpenAI(script);
  cleanups.push(() => api.close());
  const home = agent.launcher.home(api.url);
  cleanups.push(() => rmSync(home, { recursive: true, force: true }));
  const env = agent.launcher.env(home, api.url);
  const installed = cpilot(["install", name, ...agent.install], { cwd: project.dir, env });
  expect(installed.code).toBe(0);
  const run = await agent.launcher.run({
    cwd: project.dir,
    prompt: "write the env file",
    home,
    apiUrl: api.url,
    env: { PATH: path },
  });
  const turns = api.turns();
  return { project, run, next: turns[1] === undefined ? "" : afterLastTurn(turns[1] as never) };
}

function expectNoEnv(project: AgentProject): void {
  expect(existsSync(project.path(".env"))).toBe(false);
}

describe("cpilot missing or crashing: the agents that block on exit 2 refuse the write", () => {
  for (const name of ["codex", "qwen"] as const) {
    const agent = AGENTS[name] as Launched;
    test(`${name}: cpilot not on PATH`, async () => {
      const { project, next } = await session(name, agent, NO_CPILOT);
      expectNoEnv(project);
      expect(next).toContain("cpilot is not installed here");
    }, 200_000);

    test(`${name}: a cpilot that crashes`, async () => {
      const { project, next } = await session(name, agent, crashingPath("kill -SEGV $$"));
      expectNoEnv(project);
      expect(next).toContain("cpilot failed (exit 139)");
    }, 200_000);
  }
});

describe("cpilot missing: the agents that refuse on their own", () => {
  const told = {
    // Copilot CLI denies a tool whose preToolUse hook errors
    copilot: "Denied by preToolUse hook",
    // cpilot's OpenCode plugin denies when it cannot start cpilot
    opencode: "cpilot could not start",
  };
  for (const name of ["copilot", "opencode"] as const) {
    test(`${name}: cpilot not on PATH`, async () => {
      const { project, next } = await session(name, AGENTS[name] as Launched, NO_CPILOT);
      expectNoEnv(project);
      expect(next).toContain(told[name]);
    }, 200_000);
  }

  test("copilot: a cpilot that crashes", async () => {
    const crash = crashingPath("kill -SEGV $$");
    const { project, next } = await session("copilot", AGENTS.copilot as Launched, crash);
    expectNoEnv(project);
    expect(next).toContain(told.copilot);
  }, 200_000);

  test.each([
    ["not on PATH", NO_CPILOT],
    ["crashing", crashingPath("kill -SEGV $$")],
  ])(
    "gemini: cpilot %s",
    async (_, path) => {
      const project = agentProject("gemini", CONFIG);
      cleanups.push(() => project.remove());
      expect(cpilot(["install", "gemini"], { cwd: project.dir }).code).toBe(0);
      const api = await startFakeGemini([
        [
          {
            functionCall: {
              name: "write_file",
              args: { file_path: project.path(".env"), content: "SECRET=1\n" },
            },
          },
        ] as never,
        [{ text: "done" }],
      ]);
      cleanups.push(() => api.close());
      const run = await runGemini({
        cwd: project.dir,
        prompt: "write the env file",
        apiUrl: api.url,
        env: { PATH: path },
      });
      expectNoEnv(project);
      // Gemini CLI stops the session when a hook cannot start (cpilot's BeforeAgent runs
      // first), and fails the tool when the BeforeTool hook crashes
      const out = JSON.parse(run.stdout) as {
        warnings?: string[];
        stats?: { tools?: { byName?: Record<string, { fail?: number; success?: number }> } };
      };
      const stopped = (out.warnings ?? []).some((w) => w.includes("Agent execution blocked"));
      const written = out.stats?.tools?.byName?.write_file;
      expect(stopped || (written?.fail === 1 && written.success === 0)).toBe(true);
    },
    200_000,
  );
});

describe("Claude Code: the gate's hook fails closed (onFailure block, exit 2)", () => {
  async function claudeSession(path: string) {
    const project = agentProject("claude", CONFIG);
    cleanups.push(() => project.remove());
    const installed = cpilot(["install", "claude", "--project"], {
      cwd: project.dir,
      env: { PATH: pathWithCpilot() },
    });
    expect(installed.code).toBe(0);
    const api = await startFakeAnthropic([
      [
        {
          type: "tool_use",
          name: "Write",
          input: { file_path: project.path(".env"), content: "SECRET=1\n" },
        },
      ],
      [{ type: "text", text: "done" }],
    ]);
    cleanups.push(() => api.close());
    await runClaude({
      cwd: project.dir,
      apiUrl: api.url,
      prompt: "write the env file",
      env: { PATH: path },
    });
    const turns = api.turns();
    const settings = readFileSync(project.path(".claude/settings.json"), "utf8");
    return { project, settings, next: turns[1] === undefined ? "" : textOf(turns[1]) };
  }

  test("cpilot not on PATH", async () => {
    const { project, next, settings } = await claudeSession(NO_CPILOT);
    expectNoEnv(project);
    expect(next).toContain("cpilot is not installed here");
    expect(settings).toContain('"onFailure": "block"');
  }, 200_000);

  test("a cpilot that exits 1", async () => {
    const { project, next } = await claudeSession(crashingPath("exit 1"));
    expectNoEnv(project);
    expect(next).toContain("cpilot failed (exit 1)");
  }, 200_000);
});
