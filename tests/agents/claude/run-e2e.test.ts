/** `cpilot run -- claude`: the real CLI started by cpilot, hooks for that session only, a summary at the end. */
import { afterEach, expect } from "bun:test";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { killMarked, RUN_MARKER } from "../../support/_leftovers.ts";
import { provedTest } from "../../support/agent-matrix.ts";
import { buildEnv, CLAUDE_BIN } from "../../support/claude-cli.ts";
import { startFakeAnthropic, textOf } from "../../support/fake-anthropic.ts";
import { makeTempProject } from "../../support/temp-project.ts";
import { binary } from "./_helpers.ts";

const CLAUDE = { name: "claude", version: "2.1.330" };

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

provedTest(
  CLAUDE,
  ["runWithoutHooks"],
  "cpilot run -- claude: hooks for this session only, the agent's exit code, a summary on stderr",
  async () => {
    const project = await makeTempProject();
    const home = await mkdtemp(join(tmpdir(), "cpilot-run-home-"));
    const api = await startFakeAnthropic([
      [
        {
          type: "tool_use",
          name: "Write",
          input: { file_path: project.path("a.ts"), content: "// TODO\n" },
        },
      ],
      [
        {
          type: "tool_use",
          name: "Write",
          input: { file_path: project.path("a.ts"), content: "ok\n" },
        },
      ],
      [{ type: "text", text: "done" }],
    ]);
    cleanups.push(
      () => api.close(),
      () => project.remove(),
      () => rm(home, { recursive: true, force: true }),
    );
    await project.write(
      "callbacks.config.json",
      JSON.stringify({
        callbacks: [
          {
            name: "lint",
            pattern: "*.ts",
            run: '! grep -n TODO "$CP_CHANGED_FILE"',
            timeout: 20,
            per: "file",
          },
        ],
      }),
    );
    const marker = randomUUID();
    const env = { ...buildEnv(home, api.url, {}), [RUN_MARKER]: marker };
    const args = [
      "run",
      "--",
      CLAUDE_BIN,
      "-p",
      "do the task",
      "--output-format",
      "stream-json",
      "--verbose",
      "--dangerously-skip-permissions",
      "--no-session-persistence",
    ];
    const child = spawn(binary(), args, {
      cwd: project.dir,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    child.stdout.resume();
    const code = await new Promise<number | null>((r) => child.on("close", r));
    killMarked(marker);

    expect(code).toBe(0);
    expect(textOf(api.turns()[1]!)).toContain(
      "✗ 'lint' failed on a.ts: exit 1 (failed)\n  1:// TODO",
    );
    expect(stderr).toContain("cpilot: 2 callback runs this session: 1 passed, 1 failed");
    expect(stderr).toMatch(/✗ lint on a\.ts: exit 1 \(failed\) \(cpilot logs [a-z0-9-]+\)/);
    // Nothing was installed: the project's settings are untouched.
    expect(existsSync(project.path(".claude"))).toBe(false);
    expect(api.escapes()).toEqual([]);
  },
  60_000,
);
