/**
 * The set-up the real Claude Code CLI tests share: a temp git project with a cpilot config and
 * `cpilot install claude --local`, the fake Messages API playing the model's script, and one
 * `claude -p` run against it. What a test made is removed after it.
 */
import { afterEach, expect } from "bun:test";
import { cpilot } from "../helpers/binary.ts";
import { type ClaudeRun, runClaude } from "./claude-cli.ts";
import { type FakeAnthropic, type Script, startFakeAnthropic } from "./fake-anthropic.ts";
import { makeTempProject, type TempProject } from "./temp-project.ts";

/** A blocking per-file check that fails on a `.ts` file holding TODO. */
export const TODO_LINT = {
  name: "lint",
  description: "no TODO left in code",
  pattern: "*.ts",
  run: 'if grep -n TODO "$CP_CHANGED_FILE"; then echo "lint: TODO found" >&2; exit 1; fi',
  timeout: 20,
  per: "file",
};

export interface ClaudeProject {
  readonly project: TempProject;
  readonly api: FakeAnthropic;
}

/**
 * Call once at the top of a test file: `setup` makes a project (`config` as its
 * callbacks.config.json, cpilot installed for Claude Code) and a fake playing the script
 * made for it;
 * `run` runs Claude Code there and throws unless it exits 0 with no request that escaped
 * the fake. Both are removed after each test.
 */
export function claudeProjects() {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function setup(
    config: unknown,
    script: (project: TempProject) => Script,
  ): Promise<ClaudeProject> {
    const project = await makeTempProject();
    cleanups.push(() => project.remove());
    const api = await startFakeAnthropic(script(project));
    cleanups.push(() => api.close());
    await project.write("callbacks.config.json", JSON.stringify(config, null, 2));
    const installed = cpilot(["install", "claude", "--local"], { cwd: project.dir });
    if (installed.code !== 0) throw new Error(`install failed: ${installed.stderr}`);
    return { project, api };
  }

  async function run({ project, api }: ClaudeProject, prompt = "do the task"): Promise<ClaudeRun> {
    const result = await runClaude({ cwd: project.dir, apiUrl: api.url, prompt });
    if (result.exitCode !== 0)
      throw new Error(`claude exited ${result.exitCode}\nstderr:\n${result.stderr}`);
    expect(api.escapes()).toEqual([]);
    return result;
  }

  return { setup, run };
}
