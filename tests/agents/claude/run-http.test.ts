/**
 * `cpilot run -- claude` answers the calls after edits and at the stop from its own
 * process (Claude Code's http hooks, posted to a listener on 127.0.0.1), while the write
 * gate stays a command hook. The real CLI against the fake API.
 */
import { afterEach, expect, test } from "bun:test";
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { killMarked, RUN_MARKER } from "../../support/_leftovers.ts";
import { buildEnv, CLAUDE_BIN } from "../../support/claude-cli.ts";
import { startFakeAnthropic, textOf } from "../../support/fake-anthropic.ts";
import { makeTempProject } from "../../support/temp-project.ts";
import { binary } from "./_helpers.ts";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * One session: the model writes `.env` (the gate's built-in protection denies it) and a
 * failing a.ts in one batch, then says it is done (the stop check), then done again.
 * The lint callback notes which process started it.
 */
async function session(extraEnv: Record<string, string> = {}, options: { proxy?: boolean } = {}) {
  const project = await makeTempProject();
  const home = await mkdtemp(join(tmpdir(), "cpilot-run-http-"));
  const api = await startFakeAnthropic([
    [
      {
        type: "tool_use",
        name: "Write",
        input: { file_path: project.path(".env"), content: "K=1\n" },
      },
      {
        type: "tool_use",
        name: "Write",
        input: { file_path: project.path("a.ts"), content: "// TODO\n" },
      },
    ],
    [{ type: "text", text: "done" }],
    [{ type: "text", text: "done, really" }],
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
          run: 'echo "$PPID" >> "$CP_PROJECT_ROOT/../$(basename "$CP_PROJECT_ROOT").ppids"; ! grep -n TODO "$CP_CHANGED_FILE"',
          timeout: 20,
          per: "file",
          blocking: true,
        },
      ],
    }),
  );
  const marker = randomUUID();
  // proxy: the API as "localhost", the only name NO_PROXY lists; 127.0.0.1 goes to the proxy
  const apiUrl = options.proxy ? api.url.replace("127.0.0.1", "localhost") : api.url;
  const env: Record<string, string> = {
    ...buildEnv(home, apiUrl, {}),
    [RUN_MARKER]: marker,
    ...extraEnv,
  };
  if (options.proxy) {
    env.NO_PROXY = "localhost";
    env.no_proxy = "localhost";
  }
  const args = ["run", "--", CLAUDE_BIN, "-p", "do the task", "--output-format", "stream-json"];
  args.push("--verbose", "--dangerously-skip-permissions", "--no-session-persistence");
  const child = spawn(binary(), args, { cwd: project.dir, env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => {
    stderr += d;
  });
  child.stdout.resume();
  const code = await new Promise<number | null>((r) => child.on("close", r));
  killMarked(marker);
  const ppidFile = `${project.dir}.ppids`;
  cleanups.push(() => rm(ppidFile, { force: true }));
  const ppids = existsSync(ppidFile)
    ? readFileSync(ppidFile, "utf8").trim().split("\n").map(Number)
    : [];
  return { code, stderr, api, project, runPid: child.pid ?? -1, ppids };
}

test("a failing check after an edit reaches the model from cpilot run's own process; the gate still denies as a command hook", async () => {
  const { code, stderr, api, project, runPid, ppids } = await session();
  expect(code).toBe(0);
  // the gate (a command hook) denied the .env write; the model read why
  expect(existsSync(project.path(".env"))).toBe(false);
  const afterBatch = textOf(api.turns()[1]!);
  expect(afterBatch).toContain("PreToolUse:Write hook error");
  // the lint failure came back through the http hook
  expect(afterBatch).toContain("✗ 'lint' failed on a.ts: exit 1 (failed)");
  // the stop check still failed, and blocked once (Stop is an http hook too)
  expect(textOf(api.turns()[2]!)).toContain("Stop hook feedback");
  expect(textOf(api.turns()[2]!)).toContain("lint");
  // every lint run was started by `cpilot run` itself: no hook process per edit
  expect(ppids.length).toBeGreaterThan(0);
  expect(new Set(ppids)).toEqual(new Set([runPid]));
  expect(stderr).toContain("failed");
  expect(api.escapes()).toEqual([]);
}, 90_000);

test("CPILOT_HOOK_HTTP=0: the same session with command hooks, one process per call", async () => {
  const { code, api, runPid, ppids } = await session({ CPILOT_HOOK_HTTP: "0" });
  expect(code).toBe(0);
  expect(textOf(api.turns()[1]!)).toContain("✗ 'lint' failed on a.ts: exit 1 (failed)");
  expect(ppids.length).toBeGreaterThan(0);
  expect(ppids).not.toContain(runPid);
}, 90_000);

test("with a proxy set that NO_PROXY does not cover for 127.0.0.1, the http hook still reaches cpilot run", async () => {
  const { code, api, runPid, ppids } = await session({}, { proxy: true });
  expect(code).toBe(0);
  expect(textOf(api.turns()[1]!)).toContain("✗ 'lint' failed on a.ts: exit 1 (failed)");
  expect(new Set(ppids)).toEqual(new Set([runPid]));
  // the hook's POST never went to the proxy (the fake refuses and records such requests)
  expect(api.escapes()).toEqual([]);
}, 90_000);
