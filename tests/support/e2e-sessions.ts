/**
 * The sessions of one real-CLI e2e file: each test starts the agent's CLI (its launcher)
 * on a project against a fake Chat Completions model, and what it made (project, fake,
 * home) is removed after the test.
 */
import { afterEach, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import {
  type AgentProject,
  agentProject,
  binary,
  cpilot,
  LINT,
} from "../agents/gemini/_agent-project.ts";
import type { AgentLauncher } from "./agent-cli.ts";
import { proving } from "./agent-matrix.ts";
import {
  afterLastTurn,
  type FakeOpenAI,
  type Script,
  type Step,
  startFakeOpenAI,
} from "./fake-openai.ts";
import {
  type SessionTexts,
  scriptedProject,
  sessionFiles,
  sessionTexts,
} from "./real-cli-session.ts";

/** How the model writes a file in this agent's tools. */
export type WriteStep = (absPath: string, content: string) => Step;

export function e2eSessions(launcher: AgentLauncher) {
  let live: { project?: AgentProject; api?: FakeOpenAI; home?: string } = {};
  afterEach(async () => {
    live.project?.remove();
    await live.api?.close();
    if (live.home) rmSync(live.home, { recursive: true, force: true });
    live = {};
  });

  /**
   * The fake scripted with `script` (reporting `usage` for its answers), a fresh home, and
   * cpilot installed with `install` (null: not).
   */
  async function start(
    project: AgentProject,
    script: Script,
    install: string[] | null,
    usage?: Parameters<typeof startFakeOpenAI>[2],
  ) {
    live.project = project;
    const api = await startFakeOpenAI(script, undefined, usage);
    live.api = api;
    const home = launcher.home(api.url);
    live.home = home;
    const env = launcher.env(home, api.url);
    const installed =
      install === null
        ? null
        : cpilot(["install", launcher.agent, ...install], { cwd: project.dir, env });
    if (installed !== null) expect(installed.code).toBe(0);
    const run = (prompt: string, via?: string[]) =>
      launcher.run({ cwd: project.dir, prompt, home, apiUrl: api.url, ...(via ? { via } : {}) });
    return { p: project, api, home, env, installed, run };
  }

  /** The scripted session of real-cli-session.ts (`short`: the one bad write), run through `via`. */
  async function scripted(
    write: WriteStep,
    install: string[] | null,
    options: { via?: string[]; short?: boolean } = {},
  ) {
    const { project, script } = scriptedProject(launcher.agent, write, options.short);
    const s = await start(project, script, install);
    const run = await s.run("do the edits", options.via);
    expect(s.api.escapes().map((r) => r.path)).toEqual([]);
    return {
      p: project,
      run,
      installed: s.installed,
      texts: sessionTexts(s.api),
      files: sessionFiles(project),
    };
  }

  /**
   * A background callback's failure reaches the model at a later call: the model writes a
   * file (the callback starts in the background), runs `wait` (a tool call that sleeps past
   * the callback), then says "done".
   */
  async function backgroundFailureLater(write: WriteStep, wait: Step, install: string[]) {
    const bg = {
      name: "e2e",
      pattern: "**/*.ts",
      run: "sleep 1; echo '3 specs, 1 failure'; exit 1",
      blocking: false,
      per: "file",
    };
    const project = agentProject(launcher.agent, { callbacks: [bg] }, { "src/.keep": "" });
    const script = [
      [write(project.path("src/a.ts"), "export const a = 1;\n")],
      [wait],
      [{ text: "done" }],
    ];
    const s = await start(project, script, install);
    const run = await s.run("go");
    expect(run.code).toBe(0);
    const turns = s.api.turns();
    expect(afterLastTurn(turns[1] as never)).toContain("'e2e' started in background on src/a.ts");
    const later = turns
      .slice(2)
      .map((t) => afterLastTurn(t as never))
      .join("\n");
    expect(later).toMatch(/'e2e' \(background run [a-z0-9-]+\) failed on src\/a\.ts/);
    expect(later).toContain("3 specs, 1 failure");
  }

  /**
   * The stop gate with `agent.maxStopBlocks: 2`: the model writes a file a blocking check
   * fails on and says "done" three times; the first two stops are held and the failure
   * reaches the model as a new turn, with its reminder count; the third is let through.
   * Returns the run and the texts after each "done".
   */
  async function stopGateHeld(write: WriteStep, install: string[], version: string) {
    const done = proving(launcher.agent, version, ["stopGate"]);
    const project = agentProject(
      launcher.agent,
      { agent: { maxStopBlocks: 2 }, callbacks: [LINT] },
      { "src/.keep": "" },
    );
    const script = [
      [write(project.path("src/a.ts"), "export const a = BAD;\n")],
      [{ text: "done" }],
      [{ text: "done, really" }],
      [{ text: "giving up" }],
    ];
    const s = await start(project, script, install);
    const run = await s.run("go");
    expect(s.api.escapes().map((r) => r.path)).toEqual([]);
    const turns = s.api.turns();
    const after = turns.map((t) => afterLastTurn(t as never));
    expect(after[1]).toContain("BAD in src/a.ts");
    expect(after[2]).toContain(
      "cpilot: do not stop yet: this needs fixing first (reminder 1 of at most 2):",
    );
    expect(after[2]).toContain("BAD in src/a.ts");
    expect(after[3]).toContain("(reminder 2 of at most 2)");
    // the third "done" is let through: no fifth turn
    expect(turns).toHaveLength(4);
    expect(run.code).toBe(0);
    done();
    return { run, after, project };
  }

  return { start, scripted, backgroundFailureLater, stopGateHeld };
}

/**
 * What every agent's scripted session proves (the agent's own texts are checked beside
 * it): the check's failure after the bad write, the formatter's rewrite on disk and told,
 * the refused file not written and the gate's reason told. Returns the texts, known there.
 */
export function expectDelivered(
  texts: SessionTexts | null,
  files: ReturnType<typeof sessionFiles>,
): SessionTexts {
  expect(texts).not.toBeNull();
  if (texts === null) throw new Error("the session did not reach the first step's answer");
  expect(texts.afterBad).toContain("BAD in src/a.ts");
  expect(files.formatted).toBe("HELLO\n");
  expect(texts.afterFormat).toContain("HELLO");
  expect(files.refusedExists).toBe(false);
  expect(texts.afterRefused).toContain("locked/ is read-only for agents");
  return texts;
}

/**
 * The two `cpilot run -- <agent>` tests: with cpilot installed (`install`) the hooks
 * deliver and no watcher starts; without, the watcher checks the edits.
 */
export function runModeTests(
  sessions: ReturnType<typeof e2eSessions>,
  agent: { name: string; version: string; write: WriteStep; install: string[] },
): void {
  const via = () => [binary(), "run", "--"];
  test(`\`cpilot run -- ${agent.name}\` with the hooks installed: they deliver, no watcher`, async () => {
    const done = proving(agent.name, agent.version, ["runWithHooks"]);
    const { run, texts } = await sessions.scripted(agent.write, agent.install, { via: via() });
    expect(run.code).toBe(0);
    expect(texts?.afterBad).toContain("BAD in src/a.ts");
    expect(run.stderr).not.toContain("a watcher checks its edits");
    done();
  }, 200_000);

  test(`\`cpilot run -- ${agent.name}\` without hooks: the watcher checks the edits`, async () => {
    const done = proving(agent.name, agent.version, ["runWithoutHooks"]);
    const { p, run, texts } = await sessions.scripted(agent.write, null, {
      via: via(),
      short: true,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain("a watcher checks its edits");
    expect(texts?.afterBad).not.toContain("BAD in src/a.ts");
    expect(readFileSync(p.path(".cpilot/last-results.md"), "utf8")).toContain("BAD in src/a.ts");
    done();
  }, 200_000);
}
