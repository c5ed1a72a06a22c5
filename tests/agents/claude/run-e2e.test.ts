/** `cpilot run -- claude`: the real CLI started by cpilot, hooks for that session only, a summary at the end. */
import { afterEach, expect } from "bun:test";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathWithCpilot } from "../../helpers/binary.ts";
import { killMarked, RUN_MARKER } from "../../support/_leftovers.ts";
import { provedTest } from "../../support/agent-matrix.ts";
import { buildEnv, CLAUDE_BIN } from "../../support/claude-cli.ts";
import { startFakeAnthropic, textOf } from "../../support/fake-anthropic.ts";
import { makeTempProject } from "../../support/temp-project.ts";
import { binary, cpilot } from "./_helpers.ts";

const CLAUDE = { name: "claude", version: "2.1.332" };

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** `cpilot run -- claude` on a project with a lint callback; with `install`, cpilot's hooks installed first. */
async function runSession(install: boolean) {
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
  const env: Record<string, string> = { ...buildEnv(home, api.url, {}), [RUN_MARKER]: marker };
  // the installed hooks name `cpilot`: on PATH, as for a teammate
  if (install) env.PATH = pathWithCpilot(process.env.PATH ?? "/usr/bin:/bin");
  if (install)
    expect(
      cpilot(["install", "claude"], { cwd: project.dir, env: { PATH: pathWithCpilot() } }).code,
    ).toBe(0);
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

  return { code, stderr, api, project };
}

provedTest(
  CLAUDE,
  ["runWithoutHooks"],
  "cpilot run -- claude: hooks for this session only, the agent's exit code, a summary on stderr",
  async () => {
    const { code, stderr, api, project } = await runSession(false);
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

provedTest(
  CLAUDE,
  ["runWithHooks"],
  "cpilot run -- claude with cpilot's hooks installed too: each result reaches the model once",
  async () => {
    const { code, stderr, api } = await runSession(true);
    expect(code).toBe(0);
    const next = textOf(api.turns()[1]!);
    expect(next.split("✗ 'lint' failed on a.ts").length - 1).toBe(1);
    expect(stderr).toContain("cpilot: 2 callback runs this session: 1 passed, 1 failed");
    expect(api.escapes()).toEqual([]);
  },
  60_000,
);
